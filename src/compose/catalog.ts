/**
 * What the simulator serves, read from the scenario directories: scenarios, agent files and chaos
 * profiles, with every problem found. The scenarios can be read again while it runs (a reload, or
 * `--watch`); agents and profiles are read once.
 */
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { loadAgentDirs, type AgentDefinition } from '../agents/load.js';
import { loadChaosDirs } from '../chaos/catalog.js';
import type { RawChaosProfile } from '../chaos/profile.js';
import { chaosTextProblem, scenarioChaos } from '../chaos/scenario-chaos.js';
import type { Timer } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { formatIssue, loadScenarioDirs, type ScenarioIssue } from '../scenario/load.js';
import { parseInlineScenario, type InlineScenario } from '../scenario/inline.js';
import type { Scenario } from '../scenario/model.js';
import type { Settings } from './settings.js';

export interface Catalog {
  /** The scenarios served now. */
  readonly scenarios: readonly Scenario[];
  readonly agents: readonly AgentDefinition[];
  readonly chaosProfiles: ReadonlyMap<string, RawChaosProfile>;
  /** What was skipped at the last load or reload, and why. */
  readonly issues: readonly ScenarioIssue[];
  /**
   * Reads the scenarios again; a file that broke keeps its previous version (in its place in the
   * matching order, ahead of a built-in it overrides), so a typo mid-demo changes nothing.
   */
  reload(): Promise<{ issues: ScenarioIssue[] }>;
  /**
   * Puts scenarios ahead of every other (a test's own, as MSW's `server.use()` does), replacing any
   * with the same id. Refuses them all, with every problem, when one does not load.
   */
  use(sources: readonly InlineScenario[]): Promise<void>;
  /** Forgets what {@link use} added: the options' and the files' scenarios again. */
  resetScenarios(): void;
  /** Calls `listener` with the scenarios after each reload, `use` and reset. */
  onReload(listener: (scenarios: readonly Scenario[]) => void): void;
  /** With `--watch`: reloads once edits settle. Returns what stops watching. */
  watch(): () => void;
}

/** How long edits must stop before `--watch` reloads: an editor saves in several writes. */
const SETTLE_MS = 200;

export async function loadCatalog(settings: Settings): Promise<Catalog> {
  const { dirs, logger, clock } = settings;
  await checkDirs(settings.userDirs);
  const loaded = await loadScenarioDirs(dirs, { checkChaos: chaosTextProblem });
  for (const issue of loaded.issues) logger.warn(`scenario skipped: ${formatIssue(issue)}`);
  const definitions = await loadAgentDirs(
    dirs,
    loaded.scenarios.map((s) => s.id),
  );
  for (const issue of definitions.issues) logger.warn(`agent skipped: ${formatIssue(issue)}`);
  const chaos = await loadChaosDirs(dirs);
  for (const issue of chaos.issues) logger.warn(`chaos profile skipped: ${formatIssue(issue)}`);
  for (const scenario of loaded.scenarios) {
    const name = scenarioChaos(scenario)?.profile;
    if (name !== undefined && !chaos.profiles.has(name)) {
      logger.warn(
        `scenario ${scenario.id}: no chaos profile "${name}"; known: ${[...chaos.profiles.keys()].join(', ')}`,
      );
    }
  }

  // Tried in this order, the first of an id winning: use()'s, the options', the files'.
  const inline = await parseAll(settings.inlineScenarios);
  let added: readonly Scenario[] = [];
  let files: readonly Scenario[] = loaded.scenarios;
  let scenarios = firstOfEachId(added, inline, files);
  let issues: readonly ScenarioIssue[] = [...loaded.issues, ...definitions.issues, ...chaos.issues];
  const listeners: ((scenarios: readonly Scenario[]) => void)[] = [];
  const serve = () => {
    scenarios = firstOfEachId(added, inline, files);
    for (const listener of listeners) listener(scenarios);
  };

  const reload = async () => {
    const previous = new Map(files.map((s) => [s.file, s]));
    const fresh = await loadScenarioDirs(dirs, {
      previous: (file) => previous.get(file),
      checkChaos: chaosTextProblem,
    });
    reportReload(logger, previous, fresh);
    files = fresh.scenarios;
    issues = fresh.issues;
    serve();
    return { issues: fresh.issues };
  };

  return {
    get scenarios() {
      return scenarios;
    },
    agents: definitions.agents,
    chaosProfiles: chaos.profiles,
    get issues() {
      return issues;
    },
    reload,
    async use(sources) {
      const fresh = await parseAll(sources);
      added = firstOfEachId(fresh, added);
      serve();
    },
    resetScenarios() {
      added = [];
      serve();
    },
    onReload: (listener) => listeners.push(listener),
    watch() {
      let settling: Timer | undefined;
      const watchers: FSWatcher[] = dirs.map((dir) =>
        watch(dir, () => {
          settling?.cancel();
          settling = clock.setTimer(SETTLE_MS, () => {
            reload().catch((error: unknown) => logger.error('failed to reload the scenarios', error));
          });
        }).on('error', (error) => logger.warn(`--watch: stopped watching ${dir}: ${error.message}`)),
      );
      return () => {
        for (const watcher of watchers) watcher.close();
        settling?.cancel();
      };
    },
  };
}

/** Inline scenarios, compiled; one that does not load is an error, with every problem found. */
async function parseAll(sources: readonly InlineScenario[]): Promise<Scenario[]> {
  const scenarios: Scenario[] = [];
  const issues: ScenarioIssue[] = [];
  for (const source of sources) {
    const result = await parseInlineScenario(source, chaosTextProblem);
    issues.push(...result.issues);
    if (result.scenario) scenarios.push(result.scenario);
  }
  if (issues.length > 0) {
    throw new Error(
      `Failed to load the inline scenarios:\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`,
    );
  }
  return scenarios;
}

/** The lists in order of precedence, each id kept where it first appears. */
function firstOfEachId(...lists: (readonly Scenario[])[]): Scenario[] {
  const seen = new Set<string>();
  const merged: Scenario[] = [];
  for (const scenario of lists.flat()) {
    if (seen.has(scenario.id)) continue;
    seen.add(scenario.id);
    merged.push(scenario);
  }
  return merged;
}

/**
 * What a reload changed, file by file: a broken file that loaded before keeps that version, one
 * that never loaded is skipped, and files that came or went are named.
 */
function reportReload(
  logger: Logger,
  previous: ReadonlyMap<string, Scenario>,
  fresh: { scenarios: readonly Scenario[]; issues: readonly ScenarioIssue[] },
): void {
  const broken = new Set(fresh.issues.map((issue) => issue.file));
  for (const issue of fresh.issues) {
    const what = previous.has(issue.file) ? 'scenario kept at its previous version' : 'scenario skipped';
    logger.warn(`${what}: ${formatIssue(issue)}`);
  }
  const files = new Set(fresh.scenarios.map((s) => s.file));
  for (const scenario of fresh.scenarios) {
    if (!previous.has(scenario.file)) logger.info(`scenario added: ${scenario.id} (${scenario.file})`);
  }
  for (const [file, scenario] of previous) {
    if (!files.has(file) && !broken.has(file)) logger.info(`scenario removed: ${scenario.id} (${file})`);
  }
  logger.info(`scenarios reloaded: ${fresh.scenarios.length} served`);
}

/** A directory the caller named must be there: a typo must not silently serve something else. */
async function checkDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    const found = await stat(dir).catch(() => undefined);
    if (!found) throw new Error(`Failed to start: the scenario directory "${dir}" does not exist.`);
    if (!found.isDirectory()) {
      throw new Error(
        `Failed to start: "${dir}" is not a directory; -s takes a directory of scenario files.`,
      );
    }
  }
}
