import { extname } from 'node:path';
import { resultName } from '../lib/result-name.js';

/**
 * A batch result's name: the uploaded file's own name with the result's extension
 * (`IMG_1054.jpg` → `IMG_1054.webp`), cleaned as every download name is (`resultName`); an
 * upload with no usable name gets the job's own result name.
 */
export function batchResultName(inputName: string | null, resultFilename: string): string {
  const extension = extname(resultFilename);
  return resultName(inputName ?? undefined, {
    extensions: [extension.slice(1)],
    fallback: resultFilename.slice(0, resultFilename.length - extension.length),
  });
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
