/**
 * One spelling per address, so that look-alikes are one account: Unicode NFKC (fullwidth
 * ＡＤＡ＠ＥＸＡＭＰＬＥ．ＣＯＭ is ada@example.com), lower case, no surrounding space, no trailing
 * dots on the domain (example.com. is example.com in DNS). Sign-up, sign-in, recovery and the
 * admin bootstrap all pass emails through it; migration 008 brought stored emails to it.
 */
export function normalizeEmail(email: string): string {
  const folded = email.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
  const at = folded.lastIndexOf('@');
  if (at < 0) return folded;
  return `${folded.slice(0, at)}@${folded.slice(at + 1).replace(/\.+$/, '')}`.trim();
}
