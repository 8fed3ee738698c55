/**
 * Table types for Kysely. Portable across SQLite and PostgreSQL: ids are text (UUID),
 * timestamps are ISO-8601 UTC text, booleans are 0/1 integers (docs/decisions/002).
 */
export interface AppSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface Database {
  app_settings: AppSettingsTable;
}
