import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../test/databases.js';
import { usersRepository } from '../repositories/users-repository.js';
import { up } from './014-invisible-email-characters.js';

describeEachDatabase('migration 014: invisible characters in emails', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it('drops invisible characters from stored emails, and leaves one that would take another account', async () => {
    const users = usersRepository(database.db);
    const create = (email: string) => users.create({ email, name: 'x', passwordHash: 'x' });
    const plain = await create('grace@example.test');
    const zeroWidth = await create('alice@example.test\u200b');
    const softHyphen = await create('bo\u00adb@example.test');
    const clash = await create('gra\u200dce@example.test');
    await up(database.db);
    const email = async (id: string) => (await users.findById(id))!.email;
    expect(await email(plain.id)).toBe('grace@example.test');
    expect(await email(zeroWidth.id)).toBe('alice@example.test');
    expect(await email(softHyphen.id)).toBe('bob@example.test');
    expect(await email(clash.id)).toBe('gra\u200dce@example.test');
  });
});
