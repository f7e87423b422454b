import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Streams and servers are per test file; files run in parallel processes.
    pool: 'forks',
    // Every test that starts a simulator runs twice: over the native handlers the simulator listens
    // with, and over the express app (Simulator.app) with the same handlers mounted. The CLI and the
    // bench start their own processes, so they run once; so do the documentation's examples.
    projects: [
      { extends: true, test: { name: 'native' } },
      {
        extends: true,
        test: {
          name: 'express',
          env: { SIM_TEST_HTTP: 'express' },
          exclude: [
            'test/cli/**',
            'test/bench/**',
            'test/docs/**',
            'test/fuzz/process.test.ts',
            'test/architecture.test.ts',
            'test/e2e/docs-examples.test.ts',
            'test/verdicts/exam.test.ts',
            'test/verdicts/exam-breaks.test.ts',
            'test/verdicts/rules.test.ts',
            'test/record/write.test.ts',
            'test/replica/**',
          ],
        },
      },
    ],
  },
});
