import type { Kysely } from 'kysely';

const MIB = 1024 * 1024;

/**
 * Sizes count in decimal units everywhere (contracts' sizes.ts). The batch sizes seeded in
 * binary units (250 MiB, 1 GiB, 5 GiB) would read "262 MB", "1.1 GB" and "5.4 GB" on the plans
 * page: the seeded values become 250 MB, 1 GB and 5 GB. A size an admin set is left as it is.
 */
const SEEDED: [binary: number, decimal: number][] = [
  [250 * MIB, 250e6],
  [1024 * MIB, 1e9],
  [5 * 1024 * MIB, 5e9],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [binary, decimal] of SEEDED)
    await db
      .updateTable('plans')
      .set({ batch_max_bytes: decimal })
      .where('batch_max_bytes', '=', binary)
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [binary, decimal] of SEEDED)
    await db
      .updateTable('plans')
      .set({ batch_max_bytes: binary })
      .where('batch_max_bytes', '=', decimal)
      .execute();
}
