import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_ADMIN } from './e2e/e2e-env';

/**
 * Browser tests drive the built app (`npm run build`) in Debian's Chromium; no browser
 * is ever downloaded. Each run starts the server on a fresh SQLite database.
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
const dataDir = mkdtempSync(join(tmpdir(), 'refract-e2e-'));

/**
 * Specs that use or change what every test shares: the one admin account (its language too), the
 * plans, the site-wide pages they show. They run one at a time, beside the other specs, which
 * each sign up their own user and touch only what is theirs.
 */
const SHARED_STATE = [
  'accessibility',
  'accounts',
  'admin-users',
  'every-page-375',
  'languages',
  'payments',
  'plan-changes',
  'plans',
  'prerendered-pages',
  'public-face',
  'quota-line',
].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: './e2e',
  outputDir: '../../test-results',
  fullyParallel: false,
  // One browser for the shared-state specs and one for the rest, on CI's two cores.
  workers: 2,
  projects: [
    { name: 'shared state', testMatch: SHARED_STATE, workers: 1 },
    { name: 'own user', testIgnore: SHARED_STATE },
  ],
  retries: 0,
  // Hang guards, not goals: two browser workers and the server share CI's two cores, where a
  // step that takes a second at rest can take ten.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: '../../.ci/out/e2e.json' }]]
    : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'node ../server/dist/server.js',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      // Every test signs up from 127.0.0.1.
      SIGN_UP_LIMIT: '1000',
      // The API answers absolute addresses built from it.
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    },
  },
});
