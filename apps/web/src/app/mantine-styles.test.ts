import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// vite.config.ts (mantineStylesPerComponent) gives each Mantine class map `X.module.css.mjs`
// the stylesheet `styles/X.layer.css`. A Mantine release that names or places them otherwise
// would ship components unstyled; this fails first.
const core = dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css'));

function classMaps(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return classMaps(path);
    return entry.name.endsWith('.module.css.mjs') ? [path] : [];
  });
}

describe("Mantine's styles per component", () => {
  const maps = classMaps(join(core, 'esm'));

  it('finds the class maps', () => {
    expect(maps.length).toBeGreaterThan(50);
  });

  it('has a layered stylesheet for every class map', () => {
    const missing = maps
      .map((path) => basename(path, '.module.css.mjs'))
      .filter((name) => !existsSync(join(core, 'styles', `${name}.layer.css`)));
    expect(missing).toEqual([]);
  });
});
