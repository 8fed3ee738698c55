import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, Database } from '../schema.js';
import type { UserRow } from './users-repository.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export interface NewApiKey {
  userId: string;
  name: string;
  prefix: string;
  keyHash: string;
}

export function apiKeysRepository(db: Kysely<Database>) {
  return {
    /**
     * Inserts a key unless the user already holds `max`. The no-op update of the user's row
     * takes its row lock (PostgreSQL) or the write lock (SQLite) first, so two concurrent
     * creations cannot both pass the count. Undefined when the user is at the limit.
     */
    async createWithin(key: NewApiKey, max: number): Promise<ApiKeyRow | undefined> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', key.userId)
          .execute();
        const { n } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', key.userId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= max) return undefined;
        return trx
          .insertInto('api_keys')
          .values({
            id: crypto.randomUUID(),
            user_id: key.userId,
            name: key.name,
            prefix: key.prefix,
            key_hash: key.keyHash,
            created_at: new Date().toISOString(),
            last_used_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    listByUser(userId: string): Promise<ApiKeyRow[]> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    /** The key with this hash and its owner, in one query. */
    async findWithOwner(
      keyHash: string,
    ): Promise<{ keyId: string; lastUsedAt: string | null; user: UserRow } | undefined> {
      const row = await db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .selectAll('users')
        .select(['api_keys.id as key_id', 'api_keys.last_used_at as key_last_used_at'])
        .where('api_keys.key_hash', '=', keyHash)
        .executeTakeFirst();
      if (!row) return undefined;
      const { key_id, key_last_used_at, ...user } = row;
      return { keyId: key_id, lastUsedAt: key_last_used_at, user };
    },

    async touch(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },

    /** Deletes the user's key; false when no key of theirs has this id. */
    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('api_keys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
