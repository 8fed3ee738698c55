import type { Kysely } from 'kysely';

/** Audio and video jobs: whoever runs a job (this process or a worker) records its state here. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tool', 'text', (col) => col.notNull())
    .addColumn('fields', 'text', (col) => col.notNull()) // JSON of the tool's parsed fields
    // The held quota charge: confirmed when the job is done, given back otherwise.
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('period_start', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('progress', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('input_bytes', 'integer', (col) => col.notNull())
    .addColumn('output_bytes', 'integer')
    .addColumn('result_file', 'text')
    .addColumn('result_filename', 'text')
    .addColumn('result_content_type', 'text')
    .addColumn('error_status', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    // A running job's heartbeat: a job whose runner died stops updating it.
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('jobs_status_idx')
    .on('jobs')
    .columns(['status', 'updated_at'])
    .execute();
  await db.schema.createIndex('jobs_user_idx').on('jobs').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
