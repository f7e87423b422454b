import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Streams and servers are per test file; files run in parallel processes, one per core (vitest's
    // default leaves one core idle, which on a two-core machine runs the files one at a time).
    pool: 'forks',
    maxWorkers: availableParallelism(),
  },
});
