import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import type { Database, UsersTable } from '../schema.js';

export type UserRow = Selectable<UsersTable>;
/** Serialises changes to who is an active admin on PostgreSQL (SQLite has a single writer). */
const ADMIN_ROLES_LOCK = 18_004;

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

/**
 * `committedUser` reads a row by id outside Kysely (the database's read-only connection, see
 * db/database.ts); given only where `db` is the database itself, never a transaction, whose
 * own writes it would not see.
 */
export function usersRepository(
  db: Kysely<Database>,
  committedUser?: (id: string) => Promise<UserRow | undefined>,
) {
  // Read on every signed-in request (the sign-in): built and compiled once, its id the one
  // parameter: building and compiling it each time was about a twentieth of a stats request.
  const byId = db.selectFrom('users').selectAll().where('id', '=', '').compile();
  return {
    /** Inserts a user; throws a unique violation (see db/unique-violation.ts) for a taken email. */
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

    async findById(id: string): Promise<UserRow | undefined> {
      if (committedUser) return committedUser(id);
      return (await db.executeQuery<UserRow>({ ...byId, parameters: [id] })).rows[0];
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

    /**
     * Suspends or reactivates. While suspended, every request is refused as suspended (the
     * auth guard checks); reactivating bumps the epoch, so sessions from before the suspension
     * stay ended and the user signs in again. A user already in the asked state is left as is:
     * reactivating an active user must not end their sessions, nor suspending again move the
     * date of the suspension.
     */
    async setSuspended(id: string, suspended: boolean): Promise<void> {
      const now = new Date().toISOString();
      await db
        .updateTable('users')
        .set((eb) => ({
          suspended_at: suspended ? now : null,
          ...(suspended ? {} : { session_epoch: eb('session_epoch', '+', 1) }),
          updated_at: now,
        }))
        .where('id', '=', id)
        .where('suspended_at', suspended ? 'is' : 'is not', null)
        .execute();
    },

    /** Admins who can still sign in. */
    async countActiveAdmins(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('is_admin', '=', 1)
        .where('suspended_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async setAdmin(id: string, isAdmin: boolean): Promise<void> {
      await db
        .updateTable('users')
        .set({ is_admin: isAdmin ? 1 : 0, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    /**
     * A password reset: the new password; bumping the epoch ends every session issued before,
     * and the user's API keys are deleted with it (whoever took the account may hold one).
     */
    async replacePassword(id: string, passwordHash: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set((eb) => ({
            password_hash: passwordHash,
            session_epoch: eb('session_epoch', '+', 1),
            updated_at: new Date().toISOString(),
          }))
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('api_keys').where('user_id', '=', id).execute();
      });
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A page of users (newest first) with their subscription, matching `search` in name or email. */
    async listForAdmin({
      search,
      page,
      pageSize,
    }: {
      search?: string;
      page: number;
      pageSize: number;
    }) {
      let query = db
        .selectFrom('users')
        .leftJoin('subscriptions', 'subscriptions.user_id', 'users.id')
        .leftJoin('plans', 'plans.id', 'subscriptions.plan_id');
      if (search) {
        // Case-insensitive on both databases; % and _ in the search are literal.
        const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const matches = (column: 'users.name' | 'users.email') =>
          sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
        query = query.where((eb) => eb.or([matches('users.name'), matches('users.email')]));
      }
      const [rows, total] = await Promise.all([
        query
          .select([
            'users.id',
            'users.name',
            'users.email',
            'users.is_admin',
            'users.suspended_at',
            'users.country',
            'users.created_at',
            'plans.name as plan_name',
            'subscriptions.billing_type',
            'subscriptions.end_date',
          ])
          .orderBy('users.created_at', 'desc')
          .orderBy('users.id')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('users').where('id', '=', id).execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;

/**
 * Runs `change` in one transaction that holds the admin-roles lock, so that counting the
 * admins left and demoting or suspending one are a single step: two admins demoting each other
 * at the same instant cannot both see two admins (PostgreSQL: a transaction-level advisory
 * lock; SQLite: one writer, and a transaction holds it).
 */
export function changingAdminRoles<T>(
  db: Kysely<Database>,
  change: (users: UsersRepository) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (db.getExecutor().adapter instanceof PostgresAdapter)
      await sql`SELECT pg_advisory_xact_lock(${ADMIN_ROLES_LOCK})`.execute(trx);
    return change(usersRepository(trx));
  });
}
