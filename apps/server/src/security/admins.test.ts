import { afterAll, beforeAll, expect, it } from 'vitest';
import { usersRepository } from '../db/repositories/users-repository.js';
import { adminToken, bearer, freshAddress, registerUser, TEST_ADMIN } from '../test/accounts.js';
import { describeEachDatabase } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

interface Admin {
  id: string;
  token: string;
}

/** Each race of two admins, as the requests each of them sends at the same instant. */
const RACES: [string, (a: Admin, b: Admin) => [Admin, string, object][]][] = [
  [
    'both demote themselves',
    (a, b) => [
      [a, a.id, { role: 'user' }],
      [b, b.id, { role: 'user' }],
    ],
  ],
  [
    'they demote each other',
    (a, b) => [
      [a, b.id, { role: 'user' }],
      [b, a.id, { role: 'user' }],
    ],
  ],
  [
    'they suspend each other',
    (a, b) => [
      [a, b.id, { suspended: true }],
      [b, a.id, { suspended: true }],
    ],
  ],
];
const ROUNDS = 5;

describeEachDatabase('admin roles', (kind) => {
  let t: TestApp;
  /** The one active admin between races. */
  let survivor: Admin;
  beforeAll(async () => {
    t = await createTestApp(kind);
    survivor = await signedInAdmin(t);
  });
  afterAll(() => t.close());

  const patchUser = (by: Admin, id: string, change: object) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${id}`,
      payload: change,
      headers: bearer(by.token),
    });
  const activeAdminIds = async () =>
    (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('is_admin', '=', 1)
        .where('suspended_at', 'is', null)
        .execute()
    ).map((row) => row.id);

  /**
   * The request that loses is refused either by the database (both passed the admin check
   * before either wrote: 409 last_admin) or, when the other's change landed before it was
   * checked, as no longer an admin (403). Either way exactly one change lands and one active
   * admin is left, which is what the race must keep.
   */
  const REFUSALS = [
    [409, 'last_admin'],
    [403, 'forbidden'],
    [403, 'account_suspended'],
  ];

  it.each(RACES)(
    'keeps one active admin when two admins race to lose the role (%s): the other is refused',
    async (_name, race) => {
      for (let round = 0; round < ROUNDS; round++) {
        const user = await registerUser(t.app);
        expect((await patchUser(survivor, user.user._id, { role: 'admin' })).statusCode).toBe(204);
        const pair = [survivor, { id: user.user._id, token: user.token }] as const;
        const answers = await Promise.all(
          race(...pair).map(([by, id, change]) => patchUser(by, id, change)),
        );
        const left = await activeAdminIds();
        expect(left).toHaveLength(1);
        survivor = pair.find((admin) => admin.id === left[0])!;
        const bodies = `round ${round}: ${answers.map((r) => r.body)}`;
        expect(
          answers.filter((r) => r.statusCode === 204),
          bodies,
        ).toHaveLength(1);
        const refused = answers.find((r) => r.statusCode !== 204)!;
        expect(REFUSALS, bodies).toContainEqual([refused.statusCode, refused.json().code]);
      }
    },
  );

  it('keeps the sessions of an active user on suspended:false, and a suspension as it was on suspended:true', async () => {
    const user = await registerUser(t.app);
    const stats = () => t.app.inject({ url: '/api/user/stats', headers: bearer(user.token) });
    const row = () => usersRepository(t.database.db).findById(user.user._id);

    expect((await patchUser(survivor, user.user._id, { suspended: false })).statusCode).toBe(204);
    expect((await stats()).statusCode).toBe(200);
    expect((await row())?.session_epoch).toBe(0);

    await patchUser(survivor, user.user._id, { suspended: true });
    const suspended = await row();
    expect((await patchUser(survivor, user.user._id, { suspended: true })).statusCode).toBe(204);
    expect(await row()).toMatchObject({
      suspended_at: suspended!.suspended_at,
      session_epoch: suspended!.session_epoch,
      updated_at: suspended!.updated_at,
    });
  });
});

describeEachDatabase('admin bootstrap', (kind) => {
  it('lifts the suspension of the ADMIN_EMAIL account at start-up', async () => {
    const first = await createTestApp(kind);
    const admin = await signedInAdmin(first);
    const other = await registerUser(first.app);
    const patch = (by: string, id: string, change: object) =>
      first.app.inject({
        method: 'PATCH',
        url: `/api/admin/users/${id}`,
        payload: change,
        headers: bearer(by),
      });
    await patch(admin.token, other.user._id, { role: 'admin' });
    expect((await patch(other.token, admin.id, { suspended: true })).statusCode).toBe(204);
    const login = (app: TestApp['app']) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: TEST_ADMIN,
        remoteAddress: freshAddress(),
      });
    expect((await login(first.app)).json().code).toBe('account_suspended');
    await first.app.close();

    // Started again with the same ADMIN_EMAIL and ADMIN_PASSWORD (createTestApp sets them).
    const restarted = await createTestApp(kind, { database: first.database });
    try {
      const again = await login(restarted.app);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().user.isAdmin).toBe(true);
    } finally {
      await restarted.close();
      await first.database.dispose();
    }
  });
});

async function signedInAdmin(t: TestApp): Promise<Admin> {
  const token = await adminToken(t.app);
  const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(token) });
  return { id: me.json()._id, token };
}
