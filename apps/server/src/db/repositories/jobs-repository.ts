import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import type { Database, JobsTable } from '../schema.js';
import { usageRepository, type Charge } from './usage-repository.js';

export type JobRow = Selectable<JobsTable>;
/** The fields that name the use a job holds. */
export type JobChargeFields = Pick<JobRow, 'user_id' | 'service' | 'period_start' | 'tracked'>;

/** The use a job holds, as the usage counters name it. */
export const chargeOf = (job: JobChargeFields): Charge => ({
  userId: job.user_id,
  service: job.service,
  periodStart: job.period_start,
  count: 1,
  tracked: job.tracked === 1,
});
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

/** What a claimed slot becomes once its upload is in place and its use is held. */
export type Admission = Pick<JobRow, 'fields' | 'service' | 'period_start' | 'input_bytes'> & {
  /** 1 when a tracked use paid for it. */
  tracked?: number;
  input_name?: string | null;
};

const UNFINISHED: Status[] = ['queued', 'running'];
/** What a user's cap counts: slots being uploaded to, waiting and running jobs. */
const UNDER_WAY: Status[] = ['receiving', 'queued', 'running'];
/** What the queue's bound counts: everything not yet taken by a runner. */
const WAITING: Status[] = ['receiving', 'queued'];
/** Serialises job admissions on PostgreSQL (SQLite has a single writer). */
const ADMISSION_LOCK = 18_001;

/** A job's charge as it ends: none when a request for it was answered 503 (`waive`). */
const unlessWaived = sql<number>`CASE WHEN waived = 1 THEN 0 ELSE 1 END`;

/** What an ending statement returns: the job's charge as it ended, and whose use it is. */
const ENDED = ['charged', 'user_id', 'service', 'period_start', 'tracked'] as const;

/**
 * Every state change is one conditional UPDATE, so when a runner, a cancel and a sweeper race,
 * exactly one of them moves the job on, and settles its quota charge in the same transaction:
 * whoever reads the job as ended reads the user's count as settled too (written apart, a job
 * could read done and free while its use still counted, or keep the use for good when the
 * process stopped between the two).
 */
/** A job's place, claimed before its upload is read. */
interface NewSlot {
  id: string;
  user_id: string;
  tool: string;
  created_at: string;
  /** The request that uploads it (logged with the job's every line). */
  request_id?: string | null;
}

export function jobsRepository(db: Kysely<Database>) {
  const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /**
   * Runs an ending UPDATE and settles the use its job held (confirmed when charged, given back
   * when not), in one transaction. Undefined when the statement moved nothing.
   */
  function endWithCharge(
    end: (trx: Kysely<Database>) => Promise<Pick<JobRow, (typeof ENDED)[number]> | undefined>,
  ) {
    return db.transaction().execute(async (trx) => {
      const ended = await end(trx);
      if (!ended) return undefined;
      const charged = ended.charged === 1;
      await usageRepository(trx).settle(chargeOf(ended), charged ? 'confirm' : 'release');
      return { charged };
    });
  }

  async function count(q: Kysely<Database>, statuses: Status[], userId?: string) {
    let query = q
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', 'in', statuses)
      // A batch's files are bounded by the batch limits instead (batches-repository).
      .where('batch_id', 'is', null);
    if (userId) query = query.where('user_id', '=', userId);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  /** Counts and inserts with nothing in between: run inside the admission transaction. */
  async function claimIn(
    q: Kysely<Database>,
    slot: NewSlot,
    limits: { perUser: number; queue: number },
  ): Promise<'claimed' | 'user_limit' | 'queue_full'> {
    if (postgres) await sql`SELECT pg_advisory_xact_lock(${ADMISSION_LOCK})`.execute(q);
    if ((await count(q, UNDER_WAY, slot.user_id)) >= limits.perUser) return 'user_limit';
    if ((await count(q, WAITING)) >= limits.queue) return 'queue_full';
    const at = slot.created_at;
    await q
      .insertInto('jobs')
      .values({
        ...slot,
        // Filled in by `admit` once the upload is read.
        fields: '{}',
        service: '',
        period_start: '',
        input_bytes: 0,
        status: 'receiving',
        progress: 0,
        charged: 0,
        attempts: 0,
        waived: 0,
        runner: null,
        updated_at: at,
      })
      .execute();
    return 'claimed';
  }

  return {
    /**
     * Claims a slot for a new job before its upload is read: the user's and the queue's limits
     * are checked and the row inserted in one transaction (PostgreSQL: under an advisory lock;
     * SQLite: one connection, one writer), so parallel submits can never overrun them.
     */
    claimSlot: (slot: NewSlot, limits: { perUser: number; queue: number }) =>
      db.transaction().execute((trx) => claimIn(trx, slot, limits)),

    /** receiving → queued, with what the upload turned out to be; false when the slot is gone. */
    async admit(id: string, job: Admission, now: string) {
      const result = await db
        .updateTable('jobs')
        .set({ ...job, status: 'queued', updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'receiving')
        .executeTakeFirst();
      return changed(result);
    },

    /** Removes a slot still receiving its upload; false when it had become a job (or was gone). */
    async releaseSlot(id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('jobs')
        .where('id', '=', id)
        .where('status', '=', 'receiving')
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    find: (id: string) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst(),

    /**
     * queued → running, as a new attempt with its own runner token; undefined when it was
     * cancelled (or taken) meanwhile.
     */
    async claim(id: string, now: string) {
      const claimed = await db
        .updateTable('jobs')
        .set({
          status: 'running',
          updated_at: now,
          started_at: now,
          runner: randomUUID(),
          attempts: sql<number>`attempts + 1`,
        })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      return changed(claimed) ? this.find(id) : undefined;
    },

    /**
     * Takes the next job fairly: first the users with the fewest jobs running, among them the
     * one served least recently (never served first), then that user's oldest job. So one
     * user's queued jobs take turns with everyone else's instead of going first. Only jobs of
     * `tools` (the lane that has room in this process: image work or audio and video); a job of
     * `oneAtATime` waits while the same user has one of that tool running, so their second
     * upscale stays queued instead of holding a place of the lane that others could use.
     */
    async claimNext(now: string, tools: readonly string[], oneAtATime: readonly string[] = []) {
      for (;;) {
        let query = db
          .selectFrom('jobs as j')
          .select('j.id')
          .where('j.status', '=', 'queued')
          .where('j.tool', 'in', tools);
        if (oneAtATime.length > 0)
          query = query.where(
            sql<boolean>`NOT (j.tool IN (${sql.join(oneAtATime)}) AND EXISTS (SELECT 1 FROM jobs r WHERE r.user_id = j.user_id AND r.tool = j.tool AND r.status = 'running'))`,
          );
        const next = await query
          .orderBy(
            sql`(SELECT count(*) FROM jobs r WHERE r.user_id = j.user_id AND r.status = 'running')`,
          )
          .orderBy(
            sql`coalesce((SELECT max(s.started_at) FROM jobs s WHERE s.user_id = j.user_id), '')`,
          )
          .orderBy('j.created_at')
          .orderBy('j.id')
          .limit(1)
          .executeTakeFirst();
        if (!next) return undefined;
        const job = await this.claim(next.id, now);
        // Another runner took it (or it was cancelled) meanwhile: look again.
        if (job) return job;
      }
    },

    /**
     * Records progress; false when this run is no longer the job's (cancelled, or re-queued as
     * presumed dead): stop work.
     */
    async heartbeat(id: string, runner: string, progress: number, now: string) {
      const result = await db
        .updateTable('jobs')
        .set({ progress, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('runner', '=', runner)
        .executeTakeFirst();
      return changed(result);
    },

    /**
     * running → queued: a run presumed dead (no heartbeat since `silentSince`), or one handed
     * back by its own runner (`runner`) at shutdown, which does not count as an attempt.
     */
    async requeue(id: string, now: string, by: { silentSince: string } | { runner: string }) {
      let query = db
        .updateTable('jobs')
        .set({
          status: 'queued',
          progress: 0,
          runner: null,
          updated_at: now,
          ...('runner' in by ? { attempts: sql<number>`attempts - 1` } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'running');
      query =
        'runner' in by
          ? query.where('runner', '=', by.runner)
          : query.where('updated_at', '<', by.silentSince);
      return changed(await query.executeTakeFirst());
    },

    /**
     * running → done, its charge settled; whether it was charged (not when waived), or
     * undefined when the run was not its own.
     */
    finishDone(id: string, runner: string, result: JobResult, now: string) {
      return endWithCharge((trx) =>
        trx
          .updateTable('jobs')
          .set({
            status: 'done',
            progress: 100,
            charged: unlessWaived,
            result_file: result.file,
            result_filename: result.filename,
            result_content_type: result.contentType,
            output_bytes: result.bytes,
            updated_at: now,
            finished_at: now,
          })
          .where('id', '=', id)
          .where('status', '=', 'running')
          .where('runner', '=', runner)
          .returning(ENDED)
          .executeTakeFirst(),
      );
    },

    /**
     * Ends a queued or running job as failed or cancelled, its charge settled: whether it was
     * charged, or undefined when it had already ended. `charged`: its use counts although it
     * did not finish (see job-service's charging rule), unless the job was waived.
     */
    end(
      id: string,
      status: 'failed' | 'cancelled',
      now: string,
      error?: JobError,
      charged = false,
      /** A runner ending its own run: only while the run is still its own. */
      runner?: string,
    ) {
      return endWithCharge((trx) => {
        let query = trx
          .updateTable('jobs')
          .set({
            status,
            charged: charged ? unlessWaived : 0,
            error_status: error?.status ?? null,
            error_code: error?.code ?? null,
            error_message: error?.message ?? null,
            updated_at: now,
            finished_at: now,
          })
          .where('id', '=', id)
          .where('status', 'in', UNFINISHED);
        if (runner) query = query.where('runner', '=', runner);
        return query.returning(ENDED).executeTakeFirst();
      });
    },

    /**
     * A waiting request for this job was answered 503, so the job must cost nothing: marked
     * waived while unfinished (whoever ends it then charges nothing), or, when it has already
     * ended charged, made uncharged with its use given back in the same transaction (a retry
     * finds it uncharged already, so the use is given back once).
     */
    async waive(id: string): Promise<void> {
      const marked = await db
        .updateTable('jobs')
        .set({ waived: 1 })
        .where('id', '=', id)
        .where('status', 'in', [...UNDER_WAY])
        .executeTakeFirst();
      if (changed(marked)) return;
      await endWithCharge((trx) =>
        trx
          .updateTable('jobs')
          .set({ waived: 1, charged: 0 })
          .where('id', '=', id)
          .where('charged', '=', 1)
          .returning(ENDED)
          .executeTakeFirst(),
      );
    },

    /** Unfinished jobs whose runner has not been heard from since `before` (all of them: pass now). */
    listSilent: (before: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('status', 'in', UNFINISHED)
        .where('updated_at', '<', before)
        .execute(),

    /** Jobs waiting since before `before`, oldest first (the reconciler checks their wake-ups). */
    listQueuedBefore: (before: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('status', '=', 'queued')
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(500)
        .execute(),

    /**
     * A user's jobs, newest first, `limit` of them from before the cursor `before`
     * (created_at and id of the last one seen). A slot still receiving its upload is listed (as
     * waiting): it holds one of the user's places until it becomes a job or is freed.
     */
    listForUser(userId: string, limit: number, before?: { createdAt: string; id: string }) {
      // A batch is listed once, by its first file; batchCounts tells how all its files stand.
      let query = db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.or([
            eb('batch_id', 'is', null),
            eb(
              'batch_index',
              '=',
              eb
                .selectFrom('jobs as first')
                .select((f) => f.fn.min('first.batch_index').as('index'))
                .whereRef('first.batch_id', '=', 'jobs.batch_id')
                .where('first.status', '!=', 'receiving'),
            ),
          ]),
        );
      if (before)
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', before.createdAt),
            eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
          ]),
        );
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** How the files of each of these batches stand: total, done and failed. */
    async batchCounts(batchIds: string[]) {
      if (batchIds.length === 0)
        return new Map<string, { total: number; done: number; failed: number }>();
      const rows = await db
        .selectFrom('jobs')
        .where('batch_id', 'in', batchIds)
        .where('status', '!=', 'receiving')
        .select((eb) => [
          'batch_id',
          eb.fn.countAll().as('total'),
          eb.fn.sum(eb.case().when('status', '=', 'done').then(1).else(0).end()).as('done'),
          eb.fn.sum(eb.case().when('status', '=', 'failed').then(1).else(0).end()).as('failed'),
        ])
        .groupBy('batch_id')
        .execute();
      // PostgreSQL answers counts and sums as strings.
      return new Map(
        rows.map((row) => [
          row.batch_id!,
          { total: Number(row.total), done: Number(row.done), failed: Number(row.failed) },
        ]),
      );
    },

    /** Slots still receiving whose process last renewed them before `before` (it died). */
    listReceivingBefore: (before: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('status', '=', 'receiving')
        .where('updated_at', '<', before)
        .execute(),

    /** These slots' uploads are still arriving: their process renews them (a heartbeat). */
    async renewReceiving(ids: string[], now: string) {
      if (ids.length === 0) return;
      await db
        .updateTable('jobs')
        .set({ updated_at: now })
        .where('id', 'in', ids)
        .where('status', '=', 'receiving')
        .execute();
    },

    /** Ended jobs whose files are still kept, finished before `before`. */
    listKeptBefore: (before: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('finished_at', '<', before)
        .where('result_file', 'is not', null)
        .execute(),

    /** Records of ended jobs finished before `before` (their files long gone). */
    listFinishedBefore: (before: string) =>
      db.selectFrom('jobs').selectAll().where('finished_at', '<', before).execute(),

    /** A user's kept results, newest first: what their disk allowance counts. */
    /** Jobs queued and running now, by tool: the queue's depth, for /metrics. */
    async countUnfinished() {
      const rows = await db
        .selectFrom('jobs')
        .select(['tool', 'status', (f) => f.fn.countAll<number | string>().as('count')])
        .where('status', 'in', ['queued', 'running'])
        .groupBy(['tool', 'status'])
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },

    listKeptResults: (userId: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', 'done')
        .where('result_file', 'is not', null)
        .orderBy('finished_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),

    /** The result's files are gone: the record stays, so a download answers 410, not 404. */
    async expireResult(id: string) {
      await db.updateTable('jobs').set({ result_file: null }).where('id', '=', id).execute();
    },

    async remove(id: string) {
      await db.deleteFrom('jobs').where('id', '=', id).execute();
    },
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;
