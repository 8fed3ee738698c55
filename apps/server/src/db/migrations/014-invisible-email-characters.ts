import type { Kysely } from 'kysely';
import { normalise as normaliseAt008, rewriteEmails } from './008-normalised-emails.js';

/** The email spelling of lib/email.ts when this migration was written (frozen here on purpose). */
const normalise = (email: string) =>
  normaliseAt008(email.normalize('NFKC').replace(/\p{Default_Ignorable_Code_Point}/gu, ''));

/**
 * Sign-in now also drops invisible characters (Default_Ignorable_Code_Point: zero-width spaces,
 * soft hyphens), so `alice@example.test` + U+200B is alice@example.test. Stored
 * emails with one are rewritten, so their owners still sign in; one whose new spelling is
 * another account's (an invisible look-alike signed up before the fix) is left for an admin.
 */
export const up = (db: Kysely<any>) => rewriteEmails(db, normalise);

export async function down(): Promise<void> {
  // The old spellings are not kept; they were look-alikes of the new ones.
}
