import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { usersRepository } from '../db/repositories/users-repository.js';
import { registerUser } from '../test/accounts.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test/databases.js';
import { createTestApp } from '../test/test-app.js';
import { ensureAdmin } from './admin-bootstrap.js';

describeEachDatabase('admin bootstrap', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(() => database.dispose());

  it('creates the admin once and is idempotent', async () => {
    const users = usersRepository(database.db);
    const spec = { email: 'Root@Example.com', password: 'admin password 1' };
    expect(await ensureAdmin(users, spec)).toEqual({ created: true, email: 'root@example.com' });
    expect(await ensureAdmin(users, spec)).toEqual({ created: false, email: 'root@example.com' });
    const rows = await database.db.selectFrom('users').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.is_admin).toBe(1);
  });

  it('promotes an existing user at start-up from ADMIN_EMAIL, keeping their password', async () => {
    const first = await createTestApp(kind);
    const user = await registerUser(first.app);
    await first.app.close();
    const env = { ADMIN_EMAIL: user.email, ADMIN_PASSWORD: 'ignored for existing users' };
    const { buildApp } = await import('../app.js');
    const { loadConfig } = await import('../config.js');
    const { createMetrics } = await import('../metrics/metrics.js');
    const config = loadConfig({
      ...env,
      LOG_LEVEL: 'silent',
      DATA_DIR: first.database.options.dataDir,
    });
    const app = await buildApp({
      config,
      database: first.database,
      engines: {} as never,
      version: '0',
      metrics: createMetrics(config),
    });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: user.password },
      });
      expect(login.json().user.isAdmin).toBe(true);
    } finally {
      await app.close();
      await first.database.dispose();
    }
  });

  it('refuses a weak password for a new admin', async () => {
    await expect(
      ensureAdmin(usersRepository(database.db), { email: 'a@example.com', password: 'short' }),
    ).rejects.toMatchObject({
      code: 'weak_password',
    });
  });
});

it('npm run admin -- create works from the shell', async () => {
  const database = await createTestDatabase('sqlite');
  const cli = fileURLToPath(new URL('../cli/admin.ts', import.meta.url));
  const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
  try {
    const { stdout } = await promisify(execFile)(
      tsx,
      [
        '--conditions=source',
        cli,
        'create',
        '--email',
        'ops@example.com',
        '--password',
        'ops password 1',
        '--name',
        'Ops',
      ],
      { env: { ...process.env, DATA_DIR: database.options.dataDir, DATABASE_URL: '' } },
    );
    expect(stdout).toContain('Created admin: ops@example.com');
    const row = await usersRepository(database.db).findByEmail('ops@example.com');
    expect(row).toMatchObject({ is_admin: 1, name: 'Ops' });
  } finally {
    await database.dispose();
  }
});
