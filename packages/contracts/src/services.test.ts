import { describe, expect, it } from 'vitest';
import { hasTool, SERVICE_TOOL, SERVICES } from './services.js';
import { TOOLS } from './tools.js';

describe('services and their tools', () => {
  it('names a real tool for every service that has one', () => {
    const ids = new Set(TOOLS.map((tool) => tool.id));
    for (const service of SERVICES.filter(hasTool))
      expect(ids, service).toContain(SERVICE_TOOL[service]);
  });

  it('offers every service through a tool', () => {
    expect(SERVICES.filter((service) => !hasTool(service))).toEqual([]);
  });
});
