import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));

/**
 * Tests that measure this process itself (the main thread's CPU time, its memory), which a heap
 * grown by the files before them would change: they get a process of their own.
 */
const OWN_PROCESS = ['apps/server/src/security/event-loop.test.ts'];
const ALL = ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'];

export default defineConfig({
  resolve: { alias: { '@refract/contracts': contracts } },
  test: {
    environment: 'node',
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    // Hang guards, not goals: a test that takes a few seconds at rest takes ten times that on a
    // machine as busy as CI's can be (load 20 on 2 cores). A time goal lives in bench/.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Database and media tests are heavy; two workers match the two cores.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: ALL,
          exclude: OWN_PROCESS,
          // Each worker keeps its modules from one file to the next: loading the server's module
          // graph (sharp, the model runtimes, Fastify, the routes) again for each of the hundred
          // files was over a quarter of the suite's CPU time. Tests share no state through
          // modules: each builds its own app on its own database, and none mocks a module or
          // changes the environment (decision 042).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
