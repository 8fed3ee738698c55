import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../test/databases.js';
import { usersRepository } from '../repositories/users-repository.js';
import { up } from './008-normalised-emails.js';

describeEachDatabase('migration 008: normalised emails', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it('rewrites look-alike spellings, and leaves one that would take another account', async () => {
    const users = usersRepository(database.db);
    const create = (email: string) => users.create({ email, name: 'x', passwordHash: 'x' });
    const plain = await create('grace@example.com');
    const fullwidth = await create('ａｄａ@ｅｘａｍｐｌｅ.ｃｏｍ');
    const dotted = await create('linus@example.org.');
    const clash = await create('ｇｒａｃｅ@example.com');
    await up(database.db);
    const email = async (id: string) => (await users.findById(id))!.email;
    expect(await email(plain.id)).toBe('grace@example.com');
    expect(await email(fullwidth.id)).toBe('ada@example.com');
    expect(await email(dotted.id)).toBe('linus@example.org');
    expect(await email(clash.id)).toBe('ｇｒａｃｅ@example.com');
  });
});
