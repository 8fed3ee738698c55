import { extname } from 'node:path';

/**
 * A batch result's name: the uploaded file's own name with the result's extension
 * (`IMG_1054.jpg` → `IMG_1054.webp`). The upload's name is untrusted text: only its last path
 * segment is kept, without control characters. (A small helper; the lead may fold it into the
 * shared naming of issue #20.)
 */
export function batchResultName(inputName: string | null, resultFilename: string): string {
  const extension = extname(resultFilename);
  const base = (inputName ?? '')
    .split(/[/\\]/)
    .pop()!
    // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  const stem = base.replace(/\.[^.]*$/, '') || resultFilename.replace(/\.[^.]*$/, '');
  return `${stem.slice(0, 200)}${extension}`;
}

/** Names made unique, in order, case-insensitively: `a.webp`, `a (2).webp`, `a (3).webp`. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const extension = extname(name);
    const stem = name.slice(0, name.length - extension.length);
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1)
      candidate = `${stem} (${n})${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
