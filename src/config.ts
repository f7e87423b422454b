/**
 * Every option of the simulator and every default, in one place. The CLI, the environment
 * (`A2A_SIM_*`) and `createSimulator()` callers all end up here, under the same names: a flag is
 * its option's name in kebab case (`--card-format` is `cardFormat`), a nested option's flag is its
 * own name, prefixed by its group for push (`--push-max-attempts` is `push.maxAttempts`,
 * `--max-events-per-task` is `retention.maxEventsPerTask`), and durations take the same units
 * everywhere (`500ms`, `15s`, `24h`, or milliseconds as a number).
 *
 * The options' types are in config/options.ts; each option with a flag is a row of data in
 * config/*-rows.ts (flag, variable, type, default, help), from which the CLI, the defaults below
 * and docs/cli.md's tables (`npm run docs:cli`) are made.
 */
import { createRequire } from 'node:module';
import { ROW_DEFAULTS } from './config/defaults.js';

export type {
  Duration,
  ProxyOptions,
  PushOptions,
  RecordOptions,
  RetentionSettings,
  SimulatorOptions,
} from './config/options.js';

const packageJson = createRequire(import.meta.url)('../package.json') as { version: string };

export const VERSION: string = packageJson.version;

/**
 * The default of every option that has one: those of the rows, durations in milliseconds and
 * sizes in bytes, and those of the options given in code only.
 * @example DEFAULTS.push.maxAttempts // 5
 */
export const DEFAULTS = Object.freeze({
  ...ROW_DEFAULTS,
  http: 'native' as 'native' | 'express',
  agent: Object.freeze({
    name: 'A2A Simulator',
    description:
      'A scripted A2A agent (a2a-sim): replays scenarios such as weather, flight booking, failure and slow cancel, with seeded timing.',
    version: VERSION,
    extendedCard: true,
    inputModes: Object.freeze(['text/plain', 'application/json', 'image/*', 'application/pdf']),
    outputModes: Object.freeze(['text/plain', 'application/json']),
  }),
});
