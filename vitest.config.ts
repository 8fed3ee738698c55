import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@refract/contracts': contracts } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    // Hang guards, not goals: a test that takes a few seconds at rest takes ten times that on a
    // machine as busy as CI's can be (load 20 on 2 cores). A time goal lives in bench/.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Database and media tests are heavy; two workers match the two cores.
    maxWorkers: 2,
    // Each worker keeps its modules from one file to the next: loading the server's module graph
    // (sharp, the model runtimes, Fastify, the routes) again for each of the hundred files was
    // over a quarter of the suite's CPU time. Tests share no state through modules: each builds
    // its own app on its own database, and none mocks a module or changes the environment
    // (decision 042).
    isolate: false,
  },
});
