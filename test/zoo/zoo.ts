/**
 * The client zoo's run and its page: every client of test/zoo/clients/ examined under every
 * built-in curriculum, and docs/clients.md made from what the exams said. zoo.test.ts asserts the verdicts each client expects and the page;
 * `npm run docs:clients` writes the page.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openExam } from '../../src/cli/exam-session.js';
import type { RuleVerdict } from '../../src/verdicts/judge.js';
import { RULES } from '../../src/verdicts/rules.js';

const ZOO = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(ZOO, '..', '..');
export const CLIENTS_DOC = join(ROOT, 'docs', 'clients.md');

/** The built-in curricula, each exam's; `all` last, as it sums the others up. */
export const CURRICULA = ['reconnect', 'polling', 'errors', 'quirks', 'expired-resume', 'all'] as const;
export type CurriculumName = (typeof CURRICULA)[number];
const DRIVE_ORDER: readonly CurriculumName[] = [
  'quirks',
  'polling',
  'reconnect',
  'expired-resume',
  'errors',
  'all',
];
type Outcome = 'pass' | 'fail' | 'advice' | 'not exercised';
/** An outcome, or the outcomes a race between a client and its task allows. */
type Expected = Exclude<Outcome, 'not exercised'> | Outcome[];

export interface ZooClient {
  id: string;
  library: string;
  version: string;
  api: string;
  expect: Partial<Record<CurriculumName, Record<string, Expected>>>;
  evidence: Record<string, string>;
  notes?: string[];
}

/** What one exam said of each client: its verdict on each rule of the curriculum. */
export type Observed = Record<string, Record<string, RuleVerdict>>;

/** Whether the zoo's libraries are installed (`npm ci --prefix test/zoo`). */
export const zooInstalled = () => existsSync(join(ZOO, 'node_modules', '@a2a-js', 'sdk-1.3'));

/** The zoo's clients, by reading their modules. */
export async function zooClients(): Promise<ZooClient[]> {
  const dir = join(ZOO, 'clients');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  return Promise.all(files.map(async (f) => ((await import(join(dir, f))) as { client: ZooClient }).client));
}

/** How long the clients' scripts may run, and then how long their left tasks may take to end. */
const CLIENTS_TIMEOUT_MS = 120_000;
const TASKS_WAIT_MS = 30_000;

/**
 * Runs the zoo: one exam per curriculum, all at once (as `a2a-sim exam` sets each up, at
 * `--speed 10`), and every client in a process of its own that drives them one after the other,
 * so that a library is loaded once and one library's work cannot hold up another's next call; the
 * clients start driving together once all have loaded their libraries. Resolves with
 * what each exam said of each client, and the clients' output.
 */
export async function runZoo(only: readonly string[] = []): Promise<{
  runs: Record<CurriculumName, Observed>;
  curricula: Record<CurriculumName, readonly string[]>;
  output: string;
}> {
  const exams = await Promise.all(CURRICULA.map((c) => openExam({ curricula: [c], speed: 10 })));
  // The order the clients take them in: those whose rules judge a wait of a second (Retry-After)
  // last, once the clients' start (a dozen processes, and those whose script is a process of its
  // own starting six more each) no longer holds the machine.
  const urls = Object.fromEntries(DRIVE_ORDER.map((c) => [c, exams[CURRICULA.indexOf(c)]!.sim.url]));
  const dir = join(ZOO, 'clients');
  const files = readdirSync(dir).filter(
    (f) => f.endsWith('.mjs') && (only.length === 0 || only.includes(f.slice(0, -'.mjs'.length))),
  );
  const clients = files.map((file) => startClient(join(dir, file), { A2A_URLS: JSON.stringify(urls) }));
  await Promise.all(clients.map((c) => c.ready));
  for (const client of clients) client.go();
  const outputs = await Promise.all(clients.map((c) => c.done));
  const judged = await Promise.all(exams.map((exam) => exam.judge(TASKS_WAIT_MS)));
  const runs = Object.fromEntries(
    CURRICULA.map((c, i) => {
      const observed: Observed = {};
      for (const client of judged[i]!) {
        const verdicts = client.verdicts.filter((v) => exams[i]!.rules.includes(v.rule));
        observed[client.client] = Object.fromEntries(verdicts.map((v) => [v.rule, v]));
      }
      return [c, observed];
    }),
  ) as Record<CurriculumName, Observed>;
  const curricula = Object.fromEntries(CURRICULA.map((c, i) => [c, exams[i]!.rules])) as Record<
    CurriculumName,
    readonly string[]
  >;
  return { runs, curricula, output: outputs.join('') };
}

interface ClientRun {
  /** Settles once the client has loaded its library. */
  ready: Promise<void>;
  /** Lets it drive. */
  go(): void;
  /** Its output, once it has ended. */
  done: Promise<string>;
}

function startClient(file: string, env: Record<string, string>): ClientRun {
  const child = spawn(process.execPath, [join(ZOO, 'lib', 'one-client.mjs'), file], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), CLIENTS_TIMEOUT_MS);
  const done = new Promise<string>((resolve) =>
    child.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    }),
  );
  // A client that ends before it is ready (it could not load) is ready to be waited for.
  const ready = new Promise<void>((resolve) => {
    child.once('message', () => resolve());
    child.once('exit', () => resolve());
  });
  return { ready, go: () => child.connected && child.send('go'), done };
}

/** {@link runZoo} in a process of its own (host.ts), away from the caller's heap and event loop. */
export async function runZooApart(): Promise<Awaited<ReturnType<typeof runZoo>>> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-sim-zoo-'));
  const file = join(dir, 'zoo.json');
  try {
    const log = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(ZOO, 'host.ts'), file], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.stderr.on('data', (chunk) => (text += chunk));
      child.on('close', () => resolve(text));
    });
    if (!existsSync(file)) throw new Error(`the zoo's run wrote no result:\n${log}`);
    return JSON.parse(readFileSync(file, 'utf8')) as Awaited<ReturnType<typeof runZoo>>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where what the exams said differs from what the clients expect: one line per client, curriculum
 * and rule. A rule left out of a client's `expect` is expected `not exercised`; an expectation may
 * list the outcomes a race between the client and a task allows (see the client's comment).
 */
export function mismatches(clients: readonly ZooClient[], runs: Record<CurriculumName, Observed>): string[] {
  const lines: string[] = [];
  for (const c of clients) {
    for (const cur of CURRICULA) {
      const verdicts = runs[cur][c.id] ?? {};
      const expected = c.expect[cur] ?? {};
      for (const rule of new Set([...Object.keys(verdicts), ...Object.keys(expected)])) {
        const got = verdicts[rule]?.outcome ?? 'not exercised';
        const allowed = outcomesOf(expected[rule]);
        if (!allowed.includes(got)) {
          const why = verdicts[rule]?.evidence[0]?.detail;
          lines.push(
            `${c.id} under ${cur}: ${rule} was ${got}, expected ${allowed.join(' or ')}${why ? ` (${why})` : ''}`,
          );
        }
      }
    }
  }
  return lines;
}

const outcomesOf = (expected: Expected | undefined): Outcome[] =>
  expected === undefined ? ['not exercised'] : Array.isArray(expected) ? expected : [expected];

/** A rule's outcomes as the page shows them: `not exercised` only when nothing else can be. */
function shown(outcomes: Outcome[]): Outcome[] {
  const met = [...new Set(outcomes)].filter((o) => o !== 'not exercised');
  return met.length ? met : ['not exercised'];
}

const MARK: Record<Outcome, string> = {
  pass: 'pass',
  fail: '**FAIL**',
  advice: 'advice',
  'not exercised': '–',
};

/**
 * docs/clients.md, from the clients' expected verdicts: what zoo.test.ts holds every run of the
 * zoo to, so the page says what the exams say (`npm run docs:clients` writes it only after a run
 * that agrees with it).
 */
export function clientsPage(
  clients: readonly ZooClient[],
  curricula: Record<CurriculumName, readonly string[]>,
): string {
  const own = CURRICULA.filter((c) => c !== 'all');
  const rules = RULES.filter((r) => own.some((c) => curricula[c].includes(r.id)));
  const outcomes = (c: ZooClient, rule: string) =>
    shown(
      own.filter((cur) => curricula[cur].includes(rule)).flatMap((cur) => outcomesOf(c.expect[cur]?.[rule])),
    );
  const passes = (c: ZooClient, cur: CurriculumName) =>
    !rules.some(
      (r) =>
        r.level === 'MUST' &&
        curricula[cur].includes(r.id) &&
        outcomesOf(c.expect[cur]?.[r.id]).includes('fail'),
    );
  const lines = [
    '# What A2A client libraries get',
    '',
    '<!-- Written by `npm run docs:clients` from the client zoo (test/zoo/): do not edit by hand. -->',
    '',
    'A2A client libraries nobody here wrote, and a few small clients written as a new user would,',
    'each driven by a short script (send, stream, resume after a cut where the library offers it,',
    'answer an input-required task, get, cancel) and examined under every built-in curriculum at',
    '`--speed 10`, as `a2a-sim exam` examines a client. Every run of `npm test` runs them all again and',
    "holds each verdict to what the library's source says it does (test/zoo/); the page is written",
    'from those verdicts. Rules and curricula: [verdicts.md](verdicts.md).',
    '',
    '## The exams, curriculum by curriculum',
    '',
    'Whether each exam passed: no MUST rule of the curriculum failed.',
    '',
    `| client | library | ${CURRICULA.join(' | ')} |`,
    `| --- | --- | ${CURRICULA.map(() => '---').join(' | ')} |`,
    ...clients.map((c) => {
      const results = CURRICULA.map((cur) => (passes(c, cur) ? 'passed' : '**FAILED**'));
      return `| \`${c.id}\` | ${libraryOf(c)} | ${results.join(' | ')} |`;
    }),
    '',
    '## Rule by rule',
    '',
    'Each rule under the curricula that exercise it (`all` aside). `advice`: the client did not do',
    'what the rule asks, on a binding whose requirements do not make it one; `–`: the client never',
    'met the case.',
    '',
    `| client | ${rules.map((r) => `${r.id} (${r.level})`).join(' | ')} |`,
    `| --- | ${rules.map(() => '---').join(' | ')} |`,
    ...clients.map(
      (c) =>
        `| \`${c.id}\` | ${rules
          .map((r) =>
            outcomes(c, r.id)
              .map((o) => MARK[o])
              .join(' / '),
          )
          .join(' | ')} |`,
    ),
    '',
    '## Why, client by client',
    '',
  ];
  for (const c of clients) {
    lines.push(`### \`${c.id}\``, '', `${libraryOf(c)}: ${c.api}.`, '');
    for (const rule of rules) {
      const sentence = c.evidence[rule.id];
      if (sentence && outcomes(c, rule.id)[0] !== 'not exercised')
        lines.push(`- **${rule.id}**: ${sentence}`);
    }
    for (const note of c.notes ?? []) lines.push(`- ${note}`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

const libraryOf = (c: ZooClient) => (c.library === 'none' ? 'none (fetch)' : `${c.library} ${c.version}`);
