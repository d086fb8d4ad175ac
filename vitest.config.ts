import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Fails the run when a test leaves a Tether daemon running (see test/support/daemon-leak-check.ts).
    globalSetup: ['test/support/daemon-leak-check.ts'],
    projects: [
      { test: { name: 'protocol', include: ['protocol/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'native-host',
          include: ['native-host/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      { test: { name: 'extension', include: ['extension/src/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
