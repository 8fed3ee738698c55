/** Code points that draw nothing: zero-width spaces and joiners, soft hyphens, fillers… */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * One spelling per address, so that look-alikes are one account: Unicode NFKC (fullwidth
 * ＡＤＡ＠ＥＸＡＭＰＬＥ．ＣＯＭ is ada@example.com), no invisible characters (ada + U+200B is
 * ada), lower case, no surrounding space, no trailing dots on the domain (example.com. is
 * example.com in DNS). Sign-up, sign-in, recovery and the admin bootstrap all pass emails
 * through it; migrations 008 and 014 brought stored emails to it.
 */
export function normalizeEmail(email: string): string {
  // Invisible characters go after NFKC, in their final form; the second NFKC puts back in
  // order the marks that one of them (a combining grapheme joiner) held apart.
  const visible = email.normalize('NFKC').replace(INVISIBLE, '');
  const folded = visible.toLowerCase().normalize('NFKC').trim();
  const at = folded.lastIndexOf('@');
  if (at < 0) return folded;
  return `${folded.slice(0, at)}@${folded.slice(at + 1).replace(/\.+$/, '')}`.trim();
}
