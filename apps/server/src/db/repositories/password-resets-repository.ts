import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export function passwordResetsRepository(db: Kysely<Database>) {
  return {
    /** Stores a new reset token (by hash) and drops the user's older unused ones. */
    async issue(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('password_resets')
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .insertInto('password_resets')
          .values({
            token_hash: tokenHash,
            user_id: userId,
            expires_at: expiresAt.toISOString(),
            used_at: null,
            created_at: new Date().toISOString(),
          })
          .execute();
      });
    },

    /**
     * Marks the token used if it belongs to the user, is unused and unexpired: one atomic
     * update, so two concurrent resets cannot both spend it. True when this call spent it.
     */
    async consume(userId: string, tokenHash: string, now = new Date()): Promise<boolean> {
      const result = await db
        .updateTable('password_resets')
        .set({ used_at: now.toISOString() })
        .where('token_hash', '=', tokenHash)
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type PasswordResetsRepository = ReturnType<typeof passwordResetsRepository>;
