import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on any machine, longest first: mostly waiting (an exam's client
 * between its polls, the client libraries' runs) or in a niced child process (the bench). Started
 * first, their waits overlap the rest of the suite. Vitest orders files by the last run's durations,
 * which a fresh clone (CI) has none of: it then starts the largest files first, and these ended last.
 */
const LONGEST = [
  'test/bench/smoke.test.ts',
  'test/verdicts/exam-breaks-polling.test.ts',
  'test/zoo/zoo.test.ts',
  'test/docs/shell-examples.test.ts',
  'test/replica/replicas.test.ts',
  'test/verdicts/exam-breaks.test.ts',
];

// A renamed file would silently lose its place and start last: the suite then outlasts its bound.
const missing = LONGEST.filter((path) => !existsSync(new URL(path, import.meta.url)));
if (missing.length > 0)
  throw new Error(`vitest.config.ts names test files that do not exist: ${missing.join(', ')}`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? LONGEST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Streams and servers are per test file; files run in parallel processes, one more than the
    // cores: several files spend most of their time waiting (an exam's client between its polls, a
    // CLI child starting, the bench's niced run), and with one per core a core sat idle through
    // those waits (a quarter of the suite's time on two cores).
    pool: 'forks',
    maxWorkers: availableParallelism() + 1,
    // A worker loads the modules once for all the files it runs (a third of the suite's time went to
    // loading them again for each file): a test file's state is in the simulators, servers and
    // clients it makes and closes, none in a module.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
