import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../test/databases.js';
import { usersRepository } from '../repositories/users-repository.js';
import { up as up008 } from './008-normalised-emails.js';
import { up as up014 } from './014-invisible-email-characters.js';

describeEachDatabase('migrations 008 and 014: stored emails in one spelling', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(() => database.dispose());

  /** Creates users with these stored emails, runs `up`, and answers each user's email after. */
  async function migrate(emails: string[], up: typeof up008) {
    const users = usersRepository(database.db);
    const created = [];
    for (const email of emails)
      created.push(await users.create({ email, name: 'x', passwordHash: 'x' }));
    await up(database.db);
    return Promise.all(created.map(async ({ id }) => (await users.findById(id))!.email));
  }

  it('008 rewrites look-alike spellings, and leaves one that would take another account', async () => {
    const emails = [
      'grace@example.com',
      'ａｄａ@ｅｘａｍｐｌｅ.ｃｏｍ',
      'linus@example.org.',
      'ｇｒａｃｅ@example.com',
    ];
    expect(await migrate(emails, up008)).toEqual([
      'grace@example.com',
      'ada@example.com',
      'linus@example.org',
      'ｇｒａｃｅ@example.com',
    ]);
  });

  it('014 drops invisible characters, and leaves one that would take another account', async () => {
    const emails = [
      'grace@example.test',
      'alice@example.test\u200b',
      'bo\u00adb@example.test',
      'gra\u200dce@example.test',
    ];
    expect(await migrate(emails, up014)).toEqual([
      'grace@example.test',
      'alice@example.test',
      'bob@example.test',
      'gra\u200dce@example.test',
    ]);
  });
});
