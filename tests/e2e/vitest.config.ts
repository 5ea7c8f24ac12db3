// End-to-end tests: real headless Chromium (Debian's) against the built app served by the real server.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['tests/e2e/global-setup.ts'],
    // A busy 2-core CI machine: give every UI expectation time (vitest's default poll is 1 s).
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
