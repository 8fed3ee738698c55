import { describe, expect, it } from 'vitest';
import type { UserRow } from '../db/repositories/users-repository.js';
import type { SubscriptionRow } from '../db/repositories/subscriptions-repository.js';
import { accountFigures } from './account-figures.js';

const user = (version: number | undefined) =>
  ({ id: 'u1', account_version: version }) as unknown as UserRow;
const subscriptionEnding = (end: string) => ({ end_date: end }) as SubscriptionRow;

describe('account figures kept in memory', () => {
  it('reads again when the account version moves, and only then', async () => {
    const figures = accountFigures();
    let loads = 0;
    const load = async () => new Map([['convert', (loads += 1)]]);
    expect((await figures.used(user(1), 'p', load)).get('convert')).toBe(1);
    expect((await figures.used(user(1), 'p', load)).get('convert')).toBe(1);
    expect((await figures.used(user(2), 'p', load)).get('convert')).toBe(2);
    // Another period is another figure.
    expect((await figures.used(user(2), 'q', load)).get('convert')).toBe(3);
    // A row read without the column is never answered from memory.
    expect((await figures.used(user(undefined), 'p', load)).get('convert')).toBe(4);
    expect((await figures.used(user(undefined), 'p', load)).get('convert')).toBe(5);
  });

  it('reads a subscription again once its end has passed (a scheduled change may be due)', async () => {
    const figures = accountFigures();
    let loads = 0;
    const load = async () => {
      loads += 1;
      return subscriptionEnding('2026-12-01T00:00:00.000Z');
    };
    await figures.subscription(user(1), new Date('2026-11-15T00:00:00Z'), load);
    await figures.subscription(user(1), new Date('2026-11-30T23:59:59Z'), load);
    expect(loads).toBe(1);
    await figures.subscription(user(1), new Date('2026-12-01T00:00:00Z'), load);
    expect(loads).toBe(2);
    // Read after its end (lapsed): nothing falls due any more, so it is kept.
    await figures.subscription(user(1), new Date('2026-12-02T00:00:00Z'), load);
    expect(loads).toBe(2);
  });

  it('forgets a load that failed, so the next read tries again', async () => {
    const figures = accountFigures();
    await expect(
      figures.used(user(1), 'p', () => Promise.reject(new Error('database down'))),
    ).rejects.toThrow('database down');
    expect((await figures.used(user(1), 'p', async () => new Map([['x', 1]]))).get('x')).toBe(1);
  });
});
