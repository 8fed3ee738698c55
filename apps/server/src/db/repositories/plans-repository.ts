import type { Kysely, Selectable } from 'kysely';
import type { Database, PlanQuotasTable, PlansTable } from '../schema.js';

export type PlanRow = Selectable<PlansTable>;
export type PlanQuotaRow = Selectable<PlanQuotasTable>;

export interface PlanInput {
  slug?: string | null;
  name: string;
  monthlyFeeCents: number;
  annualFeeCents: number;
  features: string[];
  hidden?: boolean;
  position?: number;
  quotas: { service: string; monthlyQuota: number; annualQuota: number }[];
  /** Omitted: a new plan gets the migration's default, an updated one keeps its own. */
  batchMaxFiles?: number;
  batchMaxBytes?: number;
  imageMaxBytes?: number;
  mediaMaxBytes?: number;
}

/** The limits the input sets; one it omits is left as it is (or the migration's default). */
function sizeLimits(input: PlanInput) {
  const given = {
    batch_max_files: input.batchMaxFiles,
    batch_max_bytes: input.batchMaxBytes,
    image_max_bytes: input.imageMaxBytes,
    media_max_bytes: input.mediaMaxBytes,
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
}

export interface PlanWithQuotas extends PlanRow {
  quotas: PlanQuotaRow[];
}

export function plansRepository(db: Kysely<Database>) {
  async function withQuotas(rows: PlanRow[]): Promise<PlanWithQuotas[]> {
    if (rows.length === 0) return [];
    const quotas = await db
      .selectFrom('plan_quotas')
      .selectAll()
      .where(
        'plan_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    return rows.map((row) => ({
      ...row,
      batch_max_bytes: Number(row.batch_max_bytes),
      image_max_bytes: Number(row.image_max_bytes),
      media_max_bytes: Number(row.media_max_bytes),
      quotas: quotas.filter((q) => q.plan_id === row.id),
    }));
  }

  function quotaRows(planId: string, input: PlanInput) {
    return input.quotas.map((q) => ({
      plan_id: planId,
      service: q.service,
      monthly_quota: q.monthlyQuota,
      annual_quota: q.annualQuota,
    }));
  }

  return {
    async list({ includeHidden }: { includeHidden: boolean }): Promise<PlanWithQuotas[]> {
      let query = db
        .selectFrom('plans')
        .selectAll()
        .orderBy('position')
        .orderBy('monthly_fee_cents');
      if (!includeHidden) query = query.where('hidden', '=', 0).where('archived', '=', 0);
      return withQuotas(await query.execute());
    },

    async findById(id: string): Promise<PlanWithQuotas | undefined> {
      const row = await db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
      return row && (await withQuotas([row]))[0];
    },

    async findBySlug(slug: string): Promise<PlanWithQuotas | undefined> {
      const row = await db
        .selectFrom('plans')
        .selectAll()
        .where('slug', '=', slug)
        .executeTakeFirst();
      return row && (await withQuotas([row]))[0];
    },

    /** Inserts the plan and its quotas in one transaction. */
    async create(input: PlanInput): Promise<string> {
      const id = crypto.randomUUID();
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('plans')
          .values({
            id,
            slug: input.slug ?? null,
            name: input.name,
            monthly_fee_cents: input.monthlyFeeCents,
            annual_fee_cents: input.annualFeeCents,
            features: JSON.stringify(input.features),
            hidden: input.hidden ? 1 : 0,
            archived: 0,
            position: input.position ?? 100,
            ...sizeLimits(input),
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx.insertInto('plan_quotas').values(quotaRows(id, input)).execute();
      });
      return id;
    },

    /** Replaces the plan's fields and quotas; false when there is no such plan. */
    async update(id: string, input: PlanInput): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('plans')
          .set({
            name: input.name,
            monthly_fee_cents: input.monthlyFeeCents,
            annual_fee_cents: input.annualFeeCents,
            features: JSON.stringify(input.features),
            ...sizeLimits(input),
            updated_at: new Date().toISOString(),
          })
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx.deleteFrom('plan_quotas').where('plan_id', '=', id).execute();
        await trx.insertInto('plan_quotas').values(quotaRows(id, input)).execute();
        return true;
      });
    },

    /**
     * Whether anything still points at the plan: a payment or checkout (history), or a
     * subscription on it or scheduled onto it that has not lapsed at `now`.
     */
    async isReferenced(id: string, now: Date): Promise<boolean> {
      const [payment, checkout, subscription] = await Promise.all([
        db.selectFrom('payments').select('id').where('plan_id', '=', id).executeTakeFirst(),
        db
          .selectFrom('checkout_sessions')
          .select('id')
          .where('plan_id', '=', id)
          .executeTakeFirst(),
        db
          .selectFrom('subscriptions')
          .select('id')
          .where((eb) =>
            eb.or([
              eb.and([eb('plan_id', '=', id), eb('end_date', '>', now.toISOString())]),
              eb('scheduled_plan_id', '=', id),
            ]),
          )
          .executeTakeFirst(),
      ]);
      return Boolean(payment ?? checkout ?? subscription);
    },

    /** No longer offered; kept for history and for whoever is still on it. */
    async archive(id: string): Promise<void> {
      await db
        .updateTable('plans')
        .set({ archived: 1, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('plans').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('plans')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type PlansRepository = ReturnType<typeof plansRepository>;
