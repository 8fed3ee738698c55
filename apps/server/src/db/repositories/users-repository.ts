import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../schema.js';

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  email: string;
  name: string;
  passwordHash: string;
  isAdmin?: boolean;
  country?: string | null;
  preferredLanguage?: string;
  bookAnswerHash?: string | null;
  mealAnswerHash?: string | null;
}

/** A unique-constraint violation, on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint/.test(e?.message ?? '')
  );
}

export function usersRepository(db: Kysely<Database>) {
  return {
    /** Inserts a user; throws a unique violation (see isUniqueViolation) for a taken email. */
    async create(user: NewUser): Promise<UserRow> {
      const now = new Date().toISOString();
      return db
        .insertInto('users')
        .values({
          id: crypto.randomUUID(),
          email: user.email,
          name: user.name,
          password_hash: user.passwordHash,
          is_admin: user.isAdmin ? 1 : 0,
          country: user.country ?? null,
          preferred_language: user.preferredLanguage ?? 'en',
          book_answer_hash: user.bookAnswerHash ?? null,
          meal_answer_hash: user.mealAnswerHash ?? null,
          session_epoch: 0,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },

    async setPreferredLanguage(id: string, language: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ preferred_language: language, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    async setAdmin(id: string, isAdmin: boolean): Promise<void> {
      await db
        .updateTable('users')
        .set({ is_admin: isAdmin ? 1 : 0, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    /** New password; bumping the epoch ends every session issued before. */
    async replacePassword(id: string, passwordHash: string): Promise<void> {
      await db
        .updateTable('users')
        .set((eb) => ({
          password_hash: passwordHash,
          session_epoch: eb('session_epoch', '+', 1),
          updated_at: new Date().toISOString(),
        }))
        .where('id', '=', id)
        .execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('users').where('id', '=', id).execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
