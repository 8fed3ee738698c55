import type { Kysely, Selectable } from 'kysely';
import type { Database, JobsTable } from '../schema.js';

export type JobRow = Selectable<JobsTable>;
type Status = JobsTable['status'];

export interface JobError {
  status: number;
  code: string;
  message: string;
}

export interface JobResult {
  file: string;
  filename: string;
  contentType: string;
  bytes: number;
}

export type NewJob = Pick<
  JobRow,
  'id' | 'user_id' | 'tool' | 'fields' | 'service' | 'period_start' | 'input_bytes' | 'created_at'
>;

const UNFINISHED: Status[] = ['queued', 'running'];

/**
 * Every state change is one conditional UPDATE, so when a runner, a cancel and a sweeper race,
 * exactly one of them moves the job on (and settles its quota charge).
 */
export function jobsRepository(db: Kysely<Database>) {
  const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;

  return {
    /** A new job, waiting in the queue. */
    async create(job: NewJob) {
      const at = job.created_at;
      await db
        .insertInto('jobs')
        .values({ ...job, status: 'queued', progress: 0, updated_at: at })
        .execute();
    },

    find: (id: string) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst(),

    /** queued → running; undefined when it was cancelled (or taken) meanwhile. */
    async claim(id: string, now: string) {
      const claimed = await db
        .updateTable('jobs')
        .set({ status: 'running', updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      return changed(claimed) ? this.find(id) : undefined;
    },

    /** Records progress; false when the job is no longer running (cancelled): stop work. */
    async heartbeat(id: string, progress: number, now: string) {
      const result = await db
        .updateTable('jobs')
        .set({ progress, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return changed(result);
    },

    async finishDone(id: string, result: JobResult, now: string) {
      const done = await db
        .updateTable('jobs')
        .set({
          status: 'done',
          progress: 100,
          result_file: result.file,
          result_filename: result.filename,
          result_content_type: result.contentType,
          output_bytes: result.bytes,
          updated_at: now,
          finished_at: now,
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return changed(done);
    },

    /** Ends a queued or running job as failed or cancelled; false when it had already ended. */
    async end(id: string, status: 'failed' | 'cancelled', now: string, error?: JobError) {
      const ended = await db
        .updateTable('jobs')
        .set({
          status,
          error_status: error?.status ?? null,
          error_code: error?.code ?? null,
          error_message: error?.message ?? null,
          updated_at: now,
          finished_at: now,
        })
        .where('id', '=', id)
        .where('status', 'in', UNFINISHED)
        .executeTakeFirst();
      return changed(ended);
    },

    /** Jobs waiting in the queue, everyone's: the queue's bound. */
    async countQueued() {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('status', '=', 'queued')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** One user's jobs that have not ended. */
    async countUnfinished(userId: string) {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .where('status', 'in', UNFINISHED)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Unfinished jobs whose runner has not been heard from since `before` (all of them: pass now). */
    listSilent: (before: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('status', 'in', UNFINISHED)
        .where('updated_at', '<', before)
        .execute(),

    listFinishedBefore: (before: string) =>
      db.selectFrom('jobs').selectAll().where('finished_at', '<', before).execute(),

    async remove(id: string) {
      await db.deleteFrom('jobs').where('id', '=', id).execute();
    },
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;
