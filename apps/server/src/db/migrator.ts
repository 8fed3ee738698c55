import { Migrator, type Kysely, type Migration } from 'kysely';
import * as m001 from './migrations/001-app-settings.js';
import * as m002 from './migrations/002-accounts.js';
import * as m003 from './migrations/003-plans-and-quotas.js';
import * as m004 from './migrations/004-jobs.js';
import * as m005 from './migrations/005-api-keys.js';
import * as m006 from './migrations/006-payments.js';
import * as m007 from './migrations/007-job-claims.js';
import * as m008 from './migrations/008-normalised-emails.js';
import * as m009 from './migrations/009-cache-versions.js';
import * as m010 from './migrations/010-plan-changes.js';
import * as m011 from './migrations/011-account-suspension.js';
import * as m012 from './migrations/012-job-runs.js';
import * as m013 from './migrations/013-batches.js';
import * as m014 from './migrations/014-invisible-email-characters.js';
import * as m015 from './migrations/015-job-waivers.js';
import * as m016 from './migrations/016-decimal-batch-sizes.js';
import * as m017 from './migrations/017-tracked-uses.js';
import * as m018 from './migrations/018-checkout-links.js';
import * as m019 from './migrations/019-plan-file-sizes.js';
import * as m020 from './migrations/020-job-request-ids.js';
import * as m021 from './migrations/021-account-versions.js';

/** Migrations live in code, in order; names never change once released. */
const migrations: Record<string, Migration> = {
  '001-app-settings': m001,
  '002-accounts': m002,
  '003-plans-and-quotas': m003,
  '004-jobs': m004,
  '005-api-keys': m005,
  '006-payments': m006,
  '007-job-claims': m007,
  '008-normalised-emails': m008,
  '009-cache-versions': m009,
  '010-plan-changes': m010,
  '011-account-suspension': m011,
  '012-job-runs': m012,
  '013-batches': m013,
  '014-invisible-email-characters': m014,
  '015-job-waivers': m015,
  '016-decimal-batch-sizes': m016,
  '017-tracked-uses': m017,
  '018-checkout-links': m018,
  '019-plan-file-sizes': m019,
  '020-job-request-ids': m020,
  '021-account-versions': m021,
};

/** `schema` (PostgreSQL) keeps the migration bookkeeping beside the tables it describes. */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${String(error)}`, { cause: error });
  }
}
