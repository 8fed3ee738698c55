// Quota charging under contention: 200 charges at once against one user whose plan allows 50,
// on SQLite and on PostgreSQL. Through HTTP, so the real path is measured: sign-in, the
// reservation (one conditional upsert, quota-service.ts), and its confirmation or release.
import { openAsBlob } from 'node:fs';
import { smallPng } from './fixtures.mjs';
import * as lib from './lib.mjs';

const QUOTA = 50;
const CHARGES = 200;
const png = await openAsBlob(await smallPng());

// A real tool on a 64×64 PNG, whose charge is held while the tool runs and confirmed after.
const ways = [
  {
    label: 'POST /api/rotate (64×64 PNG)',
    service: 'modify-rotate',
    request: () => {
      const form = new FormData();
      form.append('angle', '90');
      form.append('image', png, 'small.png');
      return { path: '/api/rotate', body: form };
    },
  },
];

const call = async (base, token, path, init = {}) => {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { ...init.headers, authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: await res.json().catch(() => null) };
};

/** Sets the Basic plan's quota of `service` to QUOTA, as an admin would on /admin/plans. */
async function setQuota(refract, service) {
  const plans = (await call(refract.base, refract.token, '/api/subscriptions/plans')).body;
  // `archived` is read-only: a plan is archived by DELETE, not by PUT.
  const { _id, archived: _archived, ...basic } = plans.find((p) => p.name === 'Basic');
  basic.services = basic.services.map((s) =>
    s.name === service ? { ...s, monthlyQuota: QUOTA, annualQuota: QUOTA } : s,
  );
  const put = await call(refract.base, refract.token, `/api/subscriptions/plans/${_id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(basic),
  });
  if (put.status !== 200)
    throw new Error(`plan update answered ${put.status}: ${JSON.stringify(put.body)}`);
}

async function contend(env, label) {
  const refract = await lib.startRefractAsAdmin(lib.port(7), env);
  const rows = [];
  try {
    const user = await lib.signUp(refract.base, 'contention@example.com');
    for (const way of ways) {
      await setQuota(refract, way.service);
      const statuses = [];
      const seconds = await lib.seconds(() =>
        Promise.all(
          Array.from({ length: CHARGES }, async () => {
            const { path, ...init } = way.request();
            statuses.push(
              (await call(refract.base, user, path, { method: 'POST', ...init })).status,
            );
          }),
        ),
      );
      const stats = (await call(refract.base, user, '/api/user/stats')).body;
      const used = stats.usage.find((u) => u.service === way.service).used;
      const ok = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 403).length;
      const other = CHARGES - ok - refused;
      const correct = ok === QUOTA && refused === CHARGES - QUOTA && used === QUOTA;
      rows.push(
        `| ${label} | ${way.label} | ${seconds.toFixed(2)} s | ${ok} | ${refused} | ${other} | ${used} | ${correct ? 'yes' : '**no**'} |`,
      );
    }
  } finally {
    await refract.stop();
  }
  return rows;
}

const rows = [...(await contend({}, 'SQLite'))];
const pgRows = await lib.withPostgres((url) => contend({ DATABASE_URL: url }, 'PostgreSQL'));
const where = new URL(lib.PG_URL).host;
rows.push(
  ...(pgRows ?? [
    `| PostgreSQL | not run: no server reachable at ${where} (set BENCH_DATABASE_URL) | | | | | | |`,
  ]),
);

lib.writeResults(
  'quota-contention',
  `# Quota charging under contention

${lib.measuredOn()}

${CHARGES} requests sent at once by one Basic user whose plan allows ${QUOTA} uses of the service (set through the admin plan API); each is a separate HTTP request with the user's Bearer token. Correct means exactly ${QUOTA} succeed, the other ${CHARGES - QUOTA} get 403 quota_exceeded, and the user's stats then show ${QUOTA} used.

| database | request | time for all ${CHARGES} | 200 | 403 | other | used after | correct |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

No speed goal is set here; correctness is the point. PostgreSQL ran on ${where}, in a database made for this run and dropped after it.
`,
);
