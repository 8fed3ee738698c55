import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));

/** `npm run test:faults`: real processes on the real services, one file, run alone. */
export default defineConfig({
  resolve: { alias: { '@refract/contracts': contracts } },
  test: {
    include: ['apps/server/faults/**/*.test.ts'],
    environment: 'node',
    testTimeout: 400_000,
    hookTimeout: 480_000,
    maxWorkers: 1,
  },
});
