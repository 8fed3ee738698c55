/**
 * The client's file name split for a download name: its stem reduced to ASCII letters, digits,
 * dots, dashes and underscores (undefined when nothing of it is left), and its own extension.
 * The name is text only, never a path.
 */
export function clientName(original: string | undefined): { stem?: string; extension: string } {
  const base = (original ?? '').split(/[/\\]/).pop()!;
  const dot = base.lastIndexOf('.');
  const extension = dot >= 0 ? base.slice(dot + 1) : '';
  const stem = (dot >= 0 ? base.slice(0, dot) : base)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 100);
  return { stem: /[a-z0-9]/i.test(stem) ? stem : undefined, extension };
}
