import { PostgresAdapter, sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { BatchesTable, Database, JobsTable } from '../schema.js';

export type BatchRow = Selectable<BatchesTable>;
/** Serialises batch openings on PostgreSQL (SQLite has a single writer). */
const BATCH_LOCK = 19_001;

/** Batches and the job rows of their files (each file is a job the usual runner runs). */
export function batchesRepository(db: Kysely<Database>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  return {
    /**
     * Opens a batch unless the user already has `perUser` under way (receiving, or with a file
     * waiting or running); count and insert are one step, as for single jobs.
     */
    open: (batch: Omit<BatchRow, 'status'>, perUser: number) =>
      db.transaction().execute(async (trx) => {
        if (postgres) await sql`SELECT pg_advisory_xact_lock(${BATCH_LOCK})`.execute(trx);
        const { count } = await trx
          .selectFrom('batches as b')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('b.user_id', '=', batch.user_id)
          .where((eb) =>
            eb.or([
              eb('b.status', '=', 'receiving'),
              eb.exists(
                eb
                  .selectFrom('jobs as j')
                  .select('j.id')
                  .whereRef('j.batch_id', '=', 'b.id')
                  .where('j.status', 'in', ['queued', 'running']),
              ),
            ]),
          )
          .executeTakeFirstOrThrow();
        if (Number(count) >= perUser) return false;
        await trx
          .insertInto('batches')
          .values({ ...batch, status: 'receiving' })
          .execute();
        return true;
      }),

    find: (id: string) =>
      db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst(),

    async setStatus(id: string, status: BatchRow['status']) {
      await db.updateTable('batches').set({ status }).where('id', '=', id).execute();
    },

    /** A file's job, inserted as it is: queued with its charge held, or already failed. */
    async addFile(row: Insertable<JobsTable>) {
      await db.insertInto('jobs').values(row).execute();
    },

    files: (batchId: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('batch_id', '=', batchId)
        .orderBy('batch_index')
        .execute(),

    /** Batches whose upload began before `before` and never finished (their process died). */
    listReceivingBefore: (before: string) =>
      db
        .selectFrom('batches')
        .selectAll()
        .where('status', '=', 'receiving')
        .where('created_at', '<', before)
        .execute(),

    /** Removes batches created before `before` that no longer have any file's record. */
    async removeEmptyBefore(before: string) {
      await db
        .deleteFrom('batches')
        .where('created_at', '<', before)
        .where('status', '!=', 'receiving')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('jobs').select('jobs.id').whereRef('jobs.batch_id', '=', 'batches.id'),
            ),
          ),
        )
        .execute();
    },

    async remove(id: string) {
      await db.deleteFrom('batches').where('id', '=', id).execute();
    },
  };
}

export type BatchesRepository = ReturnType<typeof batchesRepository>;
