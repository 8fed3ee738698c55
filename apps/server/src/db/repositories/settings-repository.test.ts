import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../test/databases.js';
import { settingsRepository } from './settings-repository.js';

describeEachDatabase('settings repository', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(() => database.dispose());

  it('reports the database it runs on', () => {
    expect(database.kind).toBe(kind);
  });

  it('returns undefined for a key never set', async () => {
    expect(await settingsRepository(database.db).get('missing')).toBeUndefined();
  });

  it('sets and overwrites a value', async () => {
    const settings = settingsRepository(database.db);
    await settings.set('greeting', 'hello');
    await settings.set('greeting', 'bonjour');
    expect(await settings.get('greeting')).toBe('bonjour');
  });

  it('setIfAbsent sets once and keeps the first value', async () => {
    const settings = settingsRepository(database.db);
    expect(await settings.setIfAbsent('seeded', 'first')).toBe(true);
    expect(await settings.setIfAbsent('seeded', 'second')).toBe(false);
    expect(await settings.get('seeded')).toBe('first');
  });

  it('keeps data across a reopen (migrations are idempotent)', async () => {
    await settingsRepository(database.db).set('kept', 'yes');
    const { openDatabase } = await import('../database.js');
    const again = await openDatabase(database.options);
    try {
      expect(await settingsRepository(again.db).get('kept')).toBe('yes');
    } finally {
      await again.close();
    }
  });
});
