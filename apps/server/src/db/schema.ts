import type { ColumnType } from 'kysely';

/**
 * Table types for Kysely. Portable across SQLite and PostgreSQL: ids are text (UUID),
 * timestamps are ISO-8601 UTC text, booleans are 0/1 integers (docs/decisions/002).
 */
export interface AppSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  is_admin: number;
  country: string | null;
  preferred_language: string;
  book_answer_hash: string | null;
  meal_answer_hash: string | null;
  session_epoch: number;
  /** Set while an admin has suspended the account: no sign-in, no keys, no sessions. */
  suspended_at: string | null;
  /** Bumped by triggers on every write to the user's subscription or usage (migration 021). */
  account_version: ColumnType<number, never, never>;
  created_at: string;
  updated_at: string;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface PlansTable {
  id: string;
  slug: string | null;
  name: string;
  monthly_fee_cents: number;
  annual_fee_cents: number;
  features: string;
  hidden: number;
  /** 1: kept for history and current subscribers, no longer offered. */
  archived: number;
  position: number;
  /** How many files, and bytes, one batch may hold. */
  batch_max_files: ColumnType<number, number | undefined, number>;
  /** bigint: PostgreSQL hands it back as a string (plans-repository converts it). */
  batch_max_bytes: ColumnType<number | string, number | undefined, number>;
  /** The largest file of one upload, for image tools and for audio/video tools (bigint, as above). */
  image_max_bytes: ColumnType<number | string, number | undefined, number>;
  media_max_bytes: ColumnType<number | string, number | undefined, number>;
  created_at: string;
  updated_at: string;
}

export interface PlanQuotasTable {
  plan_id: string;
  service: string;
  monthly_quota: number;
  annual_quota: number;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan_id: string;
  billing_type: 'monthly' | 'annual';
  anchor_date: string;
  end_date: string;
  cancel_at_period_end: number;
  provider_subscription_id: string | null;
  last_event_at: string | null;
  /** A downgrade chosen for when the paid period ends (null: none). */
  scheduled_plan_id: string | null;
  scheduled_billing_type: 'monthly' | 'annual' | null;
  created_at: string;
  updated_at: string;
}

export interface UsageCountersTable {
  user_id: string;
  service: string;
  period_start: string;
  used: number;
}

/** Uses charged by `POST /api/user/track` that a server run may still take (migration 017). */
export interface TrackedUsesTable {
  user_id: string;
  service: string;
  credits: number;
  expires_at: string;
}

export interface UsageEventsTable {
  id: string;
  user_id: string;
  service: string;
  count: number;
  created_at: string;
}

export interface JobsTable {
  id: string;
  user_id: string;
  tool: string;
  fields: string;
  service: string;
  period_start: string;
  /** `receiving`: a claimed slot whose upload is being read (not yet a job the API shows). */
  status: 'receiving' | 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: number;
  input_bytes: number;
  output_bytes: number | null;
  result_file: string | null;
  result_filename: string | null;
  result_content_type: string | null;
  error_status: number | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** When a runner took it: the queue serves first the user it served least recently. */
  started_at: string | null;
  /** 1 when its use counts (done, or cancelled or stopped after substantial work). */
  charged: number;
  /** The running attempt's token: only its runner's writes match it. */
  runner: string | null;
  /** 1 when a waiting request for it was answered 503: it is never charged (migration 015). */
  waived: number;
  /** 1 when its use was paid by a tracked use (migration 017): settled against those credits. */
  tracked: ColumnType<number, number | undefined, number>;
  /** Runs started; a job whose worker died is re-queued while MAX_ATTEMPTS is not reached. */
  attempts: number;
  /** A file of a batch: the batch, its place in it, and the name the file was uploaded with. */
  batch_id: string | null;
  batch_index: number | null;
  input_name: string | null;
  /** The id of the request that uploaded it (X-Request-Id), logged with every line about it. */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface BatchesTable {
  id: string;
  user_id: string;
  tool: string;
  status: 'receiving' | 'open' | 'cancelled';
  created_at: string;
}

export interface CheckoutSessionsTable {
  id: string;
  provider: 'sandbox' | 'stripe';
  user_id: string;
  plan_id: string;
  billing_type: 'monthly' | 'annual';
  amount_cents: number;
  currency: string;
  status: 'open' | 'completed' | 'declined';
  created_at: string;
  /** Where the browser goes back to, paid or not (migration 018). */
  success_url: ColumnType<string | null, string | null | undefined, string | null>;
  cancel_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 of the key of a sandbox checkout's link. */
  link_key_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PaymentsTable {
  id: string;
  user_id: string;
  plan_id: string;
  /** `admin`: a plan an admin granted, recorded as a zero-amount payment. */
  provider: 'sandbox' | 'stripe' | 'admin';
  provider_payment_id: string;
  amount_cents: number;
  currency: string;
  billing_type: 'monthly' | 'annual';
  cycle_start: string;
  cycle_end: string;
  card_brand: string | null;
  card_last4: string | null;
  receipt_url: string | null;
  billing_name: string | null;
  billing_email: string | null;
  status: string;
  created_at: string;
}

export interface ProcessedEventsTable {
  id: string;
  type: string;
  processed_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** A version per data set held in memory, bumped by triggers on its tables (migration 009). */
export interface CacheVersionsTable {
  name: string;
  version: number;
}

export interface Database {
  app_settings: AppSettingsTable;
  users: UsersTable;
  password_resets: PasswordResetsTable;
  plans: PlansTable;
  plan_quotas: PlanQuotasTable;
  subscriptions: SubscriptionsTable;
  usage_counters: UsageCountersTable;
  usage_events: UsageEventsTable;
  tracked_uses: TrackedUsesTable;
  jobs: JobsTable;
  batches: BatchesTable;
  checkout_sessions: CheckoutSessionsTable;
  payments: PaymentsTable;
  processed_events: ProcessedEventsTable;
  api_keys: ApiKeysTable;
  cache_versions: CacheVersionsTable;
}
