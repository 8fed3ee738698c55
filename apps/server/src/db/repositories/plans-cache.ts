import type { DatabaseHandle } from '../database.js';
import type { PlansRepository } from './plans-repository.js';

type Reads = Pick<PlansRepository, 'list' | 'findById' | 'findBySlug'>;

/**
 * The plans repository with its reads answered from memory. Plans are read on every plans
 * page and every quota check (3 plans and 48 quota rows, half the CPU of a plans request)
 * but change only when an admin edits them. Before each read the `plans` version row is read
 * (database.ts: a synchronous statement on SQLite); triggers bump it on any write to the plan tables, from any
 * process (migration 009), so a changed plan is never answered from an older copy.
 *
 * Reads are remembered per method and arguments, so whatever filters the repository applies
 * stay its own. Callers get the same objects each time: they must not change them. Writes and
 * any other method go to the repository unchanged.
 */
export function cachedPlansRepository(
  database: Pick<DatabaseHandle, 'cacheVersion'>,
  plans: PlansRepository,
) {
  let version: number | undefined;
  let remembered = new Map<string, Promise<unknown>>();

  async function read<R>(key: string, load: () => Promise<R>): Promise<R> {
    const current = await database.cacheVersion('plans');
    if (current !== version) {
      version = current;
      remembered = new Map();
    }
    // Read after the version, so what is remembered is at least as new as the version it is
    // filed under; a write in between bumps the version and the next read loads afresh.
    let hit = remembered.get(key) as Promise<R> | undefined;
    if (!hit) {
      hit = load();
      remembered.set(key, hit);
      hit.catch(() => remembered.delete(key));
    }
    return hit;
  }

  const reads: Reads = {
    list: (options) => read(`list:${options.includeHidden}`, () => plans.list(options)),
    findById: (id) => read(`id:${id}`, () => plans.findById(id)),
    findBySlug: (slug) => read(`slug:${slug}`, () => plans.findBySlug(slug)),
  };
  return { ...plans, ...reads };
}
