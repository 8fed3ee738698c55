import { afterAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

describeEachDatabase('start-up of several replicas at once', (kind) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    while (apps.length) await apps.pop()!.close();
  });

  it('seeds plans and ADMIN_EMAIL once, and every replica starts', async () => {
    const first = await createTestApp(kind, {
      env: { REDIS_URL: '', ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'a long password 42' },
    });
    apps.push(first);
    // Wipe what the first one seeded, then start four more at the same moment on that database.
    await first.database.db.deleteFrom('users').where('email', '=', 'boss@example.com').execute();
    const replicas = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        createTestApp(kind, {
          database: first.database,
          env: {
            REDIS_URL: '',
            ADMIN_EMAIL: 'boss@example.com',
            ADMIN_PASSWORD: 'a long password 42',
          },
        }),
      ),
    );
    for (const replica of replicas) if (replica.status === 'fulfilled') apps.push(replica.value);
    expect(replicas.map((r) => r.status)).toEqual(Array(4).fill('fulfilled'));
    const admins = await first.database.db
      .selectFrom('users')
      .select(['email', 'is_admin'])
      .where('email', '=', 'boss@example.com')
      .execute();
    expect(admins).toEqual([{ email: 'boss@example.com', is_admin: 1 }]);
  });
});
