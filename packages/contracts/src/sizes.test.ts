import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from './plans.js';
import { GB, KB, MB, sizeLabel } from './sizes.js';
import { toolById } from './tools.js';

describe('sizes in decimal units, as the systems people use show them', () => {
  it('counts a kilobyte as 1000 bytes, and labels limits as people read them', () => {
    expect([KB, MB, GB]).toEqual([1000, 1e6, 1e9]);
    expect(sizeLabel(100 * MB)).toBe('100 MB');
    expect(sizeLabel(GB)).toBe('1 GB');
    expect(sizeLabel(2.5 * GB)).toBe('2.5 GB');
  });

  it("puts round numbers in the tools' and plans' limits", () => {
    expect(toolById('convert').maxUploadBytes).toBe(100e6);
    for (const plan of DEFAULT_PLANS) expect(plan.batchMaxBytes % MB, plan.name).toBe(0);
  });
});
