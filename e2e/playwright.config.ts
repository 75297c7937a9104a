import { defineConfig, devices } from '@playwright/test';
import path from 'node:path';

/**
 * Browser journeys against the built platform, started the way the README starts it
 * (`npm run serve` after `npm run build`), on a fresh embedded database in a throwaway folder.
 * Chromium is Debian's (/usr/bin/chromium): downloading a browser is not possible here.
 */
const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_PORT ?? 3310);
// E2E_DATA_DIR lets two runs share the machine (with E2E_PORT, E2E_PG_PORT and E2E_CHAIN_PORT).
export const dataDir = process.env.E2E_DATA_DIR ?? path.join(root, 'e2e', '.data');
export const baseURL = `http://127.0.0.1:${port}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: path.join(root, 'e2e', 'artifacts', 'results'),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'fr-FR',
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } }],
  webServer: {
    command: 'node --import tsx e2e/serve-fresh.ts',
    cwd: root,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(Number(process.env.E2E_PG_PORT ?? 54391)),
      CHAIN_PORT: String(Number(process.env.E2E_CHAIN_PORT ?? 8591)),
      DEMO_DATA: 'true',
      LOG_LEVEL: 'error',
      NODE_ENV: 'development',
    },
  },
});
