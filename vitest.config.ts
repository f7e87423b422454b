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
    // A worker loads the modules once for all the files it runs (a third of the suite's time went to
    // loading them again for each file): a test file's state is in the simulators, servers and
    // clients it makes and closes, none in a module.
    isolate: false,
  },
});
