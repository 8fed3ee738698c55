import type { Kysely } from 'kysely';

/** The email spelling of lib/email.ts when this migration was written (frozen here on purpose). */
export function normalise(email: string): string {
  const folded = email.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
  const at = folded.lastIndexOf('@');
  if (at < 0) return folded;
  return `${folded.slice(0, at)}@${folded.slice(at + 1).replace(/\.+$/, '')}`.trim();
}

/**
 * Emails were stored trimmed and lower-cased; sign-in now also folds Unicode look-alikes
 * (NFKC) and trailing dots of the domain. Stored emails that change under the new
 * rule are rewritten, so their owners still sign in. One that would collide with another
 * account (a look-alike signed up before the fix) is left as it is: an admin decides which
 * account is whose. Almost every stored email is already ASCII, so almost nothing changes.
 */
export const up = (db: Kysely<any>) => rewriteEmails(db, normalise);

/**
 * Rewrites each stored email that `normalise` changes, oldest account first, unless its new
 * spelling is another account's (left for an admin). Shared with later migrations of the rule.
 */
export async function rewriteEmails(db: Kysely<any>, normalise: (email: string) => string) {
  const users: { id: string; email: string }[] = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .orderBy('created_at')
    .execute();
  const taken = new Set(users.map((u) => u.email));
  for (const user of users) {
    const email = normalise(user.email);
    if (email === user.email || taken.has(email)) continue;
    await db.updateTable('users').set({ email }).where('id', '=', user.id).execute();
    taken.add(email);
  }
}

export async function down(): Promise<void> {
  // The old spellings are not kept; they were look-alikes of the new ones.
}
