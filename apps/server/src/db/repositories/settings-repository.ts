import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Small named values the app keeps about itself (seed markers, instance facts). */
export function settingsRepository(db: Kysely<Database>) {
  return {
    async get(key: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('app_settings')
        .select('value')
        .where('key', '=', key)
        .executeTakeFirst();
      return row?.value;
    },

    async set(key: string, value: string): Promise<void> {
      const updated_at = new Date().toISOString();
      await db
        .insertInto('app_settings')
        .values({ key, value, updated_at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at }))
        .execute();
    },

    /** Sets the value only when the key is absent; true when this call set it. */
    async setIfAbsent(key: string, value: string): Promise<boolean> {
      const result = await db
        .insertInto('app_settings')
        .values({ key, value, updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;
