/**
 * Every shell block (```sh, ```bash, ```shell, ```console) of README.md and docs/*.md, run as
 * written, one test per block, so that no example can rot. Outputs and files shown for
 * illustration are in ```text, ```json and ```yaml blocks, which are not run.
 *
 * Each block runs with `bash -euo pipefail` in a directory of its own that links every file of a
 * copy of the checkout's {@link SANDBOX} files, made once in a temporary directory (so `npm start`,
 * `scenarios/tck` and `docker build .` work there, and what a block writes, in a `my-scenarios/` of
 * its own or anywhere else, never reaches the checkout: afterAll checks that its git status did not
 * change), against a simulator started from the built CLI at `--speed 0`
 * (the speed is this test's: the documented requests are the same at any speed, only faster).
 * The documented address, `http://127.0.0.1:41241` (or `localhost:41241`), is rewritten to the
 * simulator's. `http://127.0.0.1:41242` is where the docs put a real agent (record-and-proxy.md:
 * a second simulator stands for it): it is rewritten to the shared simulator's, which plays it.
 * `127.0.0.1:6379` is where the docs put Redis (replicas.md): it is rewritten to a real
 * `redis-server` the test starts.
 *
 * A block that starts a server of its own (`npm start`, `a2a-sim serve`, `npx a2a-sim`,
 * `node dist/cli/main.js`, `docker run`) runs that command for real, with its documented flags, in
 * the background on a free port: the block's addresses, `--port`, `-p HOST:` and `A2A_SIM_PORT=`
 * are rewritten to that port, `A2A_SIM_SPEED=0` is set (a documented `--speed` wins over it), and
 * the next lines run once it prints `listening on`. It is stopped (SIGTERM) when the next server line
 * starts, as a reader stops one server before starting another, and when the block ends.
 *
 * Stand-ins, on PATH for the blocks only:
 * - `npm ci && ` is left out: it would reinstall node_modules from the lockfile (a minute of network
 *   and disk); `npm start`'s `prestart` finds the build `npm test` made before this test.
 * - `npm test` is what runs this test: rather than run again inside itself, it checks that the
 *   package's test script runs vitest, which runs this file. Every other `npm` command is npm's.
 * - `npx a2a-sim ...` and `a2a-sim ...` run the built CLI, as an installed copy's bin does
 *   (test/cli/package.test.ts installs the packed package and runs it). Other `npx` commands are npx's.
 * - `docker` is fake-docker.mjs: `build` checks the Dockerfile and lays out its runtime stage,
 *   `run` runs the image's command from that layout with the documented `-p`, `-e`, `-v` and
 *   arguments (see that file).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, serve } from '../helpers/cli.js';
import { checkoutChanges, checkoutStatus, copyCheckout } from '../helpers/files.js';
import { freePort } from '../helpers/ports.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHELLS = new Set(['sh', 'bash', 'shell', 'console']);
/** How long one block may take, servers included. */
const BLOCK_TIMEOUT_MS = 20_000;
/**
 * What the blocks use of the checkout: the package and its build (`npm start`, `node
 * dist/cli/main.js`), the scenarios (`-s scenarios/tck`) and the Dockerfile with every file its
 * `COPY` lines take (`docker build .`).
 */
const SANDBOX = [
  'package.json',
  'package-lock.json',
  'Dockerfile',
  'tsconfig.json',
  'tsconfig.build.json',
  'dist',
  'scenarios',
  'scripts',
  'src',
];

interface Block {
  file: string;
  line: number;
  lang: string;
  text: string;
}

const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

function shellBlocks(file: string): Block[] {
  const blocks: Block[] = [];
  let open: { lang: string; line: number; body: string[] } | undefined;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const fence = /^\s*```\s*([\w-]*)\s*$/.exec(line);
      if (!open) {
        if (fence) open = { lang: fence[1]!, line: i + 1, body: [] };
      } else if (fence && fence[1] === '') {
        if (SHELLS.has(open.lang))
          blocks.push({ file, line: open.line, lang: open.lang, text: open.body.join('\n') });
        open = undefined;
      } else {
        open.body.push(line);
      }
    });
  return blocks;
}

const BLOCKS = FILES.flatMap(shellBlocks);

/**
 * What a block's output must contain, for blocks with an obvious answer: the block is the one
 * that contains `block` (each entry must find one), `output` what it prints.
 */
const EXPECTED: { file: string; block: string; output: string[] }[] = [
  { file: 'README.md', block: 'npm ci && npm start', output: ['listening on', 'npm test:'] },
  {
    file: 'README.md',
    block: '"messageId":"msg-uuid"',
    output: ['"name":"Weather Report"', 'TASK_STATE_COMPLETED'],
  },
  {
    file: 'README.md',
    block: 'From San Francisco',
    output: ['"name":"Flight itinerary"', 'TASK_STATE_COMPLETED'],
  },
  {
    file: 'README.md',
    block: 'message:stream',
    output: ['id: 1\n', 'Climate Change Report', 'TASK_STATE_COMPLETED'],
  },
  {
    file: 'README.md',
    block: 'Last-Event-ID: 1',
    output: ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_CANCELED'],
  },
  { file: 'README.md', block: 'Please fail this task', output: ['TASK_STATE_FAILED'] },
  { file: 'README.md', block: '_sim/requests', output: ['"binding":"REST"', '"status":"ok"'] },
  { file: 'docs/scenarios.md', block: 'a2a-sim list', output: ['flight-booking', 'input-required', 'Oslo'] },
  {
    file: 'docs/scenarios.md',
    block: 'story.yaml',
    output: ['Story  "Once upon a time, "', 'Story append last  "streamed." {"words":6}', 'completed'],
  },
  {
    file: 'docs/scenarios.md',
    block: 'parcel.yaml',
    output: ['ok: 1 scenario(s) valid', 'Parcel 123456 is out'],
  },
  {
    file: 'docs/scenarios.md',
    block: 'after: soon',
    output: ['order.yaml:6:5 steps[0].after', 'exit code 2'],
  },
  {
    file: 'docs/agents.md',
    block: 'agents/explore/',
    output: ['"name":"Explore"', 'Weather Report', 'explore'],
  },
  { file: 'docs/agents.md', block: 'scenarios/tck ', output: ['listening on', '/agents/tck'] },
  { file: 'docs/agents.md', block: 'scenarios/tck-v03', output: ['listening on', '"protocolVersion"'] },
  {
    file: 'docs/gateway.md',
    block: '/acme',
    output: ['"input-required"', 'Flight itinerary', '"completed"'],
  },
  { file: 'docs/gateway.md', block: 'dev=ws-1', output: [' 200\n', 'PERMISSION_DENIED', ' 403\n', ' 401\n'] },
  { file: 'docs/resume.md', block: 'afterSeq', output: ['id: 6\n', 'TASK_STATE_COMPLETED'] },
  { file: 'docs/push.md', block: 'x-a2a-sim-seq', output: ['"outcome":"delivered"', 'TASK_STATE_COMPLETED'] },
  { file: 'docs/chaos.md', block: 'flaky-mobile', output: ['flaky-mobile'] },
  {
    file: 'docs/generation.md',
    block: 'ifGenerationMatch',
    output: ['"generation":3', 'TASK_GENERATION_MISMATCH', ' 409\n'],
  },
  {
    file: 'docs/generation.md',
    block: 'quirks=skip-generation',
    output: ['"generation":1\n"generation":3\n', '"quirk":"skip-generation"'],
  },
  { file: 'docs/chaos.md', block: 'X-Sim-Chaos', output: ['"kind":"drop"', '"id":'] },
  {
    file: 'docs/tracing.md',
    block: 'traceparent',
    output: ['"trace":{"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","parentId":"00f067aa0ba902b7"'],
  },
  {
    file: 'docs/control-plane.md',
    block: 'CROSS_SITE',
    output: ['CROSS_SITE_REQUEST_REFUSED', ' 403\n', ' 200\n'],
  },
  {
    file: 'docs/control-plane.md',
    block: 'clock/advance',
    output: ['"status":"ok"', '"scenario":"weather"'],
  },
  { file: 'docs/control-plane.md', block: 'redacted', output: ['(redacted)', '"binding":"JSON-RPC 0.3"'] },
  { file: 'docs/control-plane.md', block: '_sim/feed', output: ['"type":"task:event"'] },
  {
    file: 'docs/metrics.md',
    block: '_sim/metrics',
    output: [
      'a2a_sim_requests_total{binding="REST",operation="send",status="200"}',
      'a2a_sim_tasks{state="completed"}',
    ],
  },
  { file: 'docs/control-plane.md', block: 'hello.yaml', output: ['Bonjour !'] },
  { file: 'docs/protocol.md', block: 'team-a', output: ['"protocolVersion"', '"kind":"task"', '"tasks":['] },
  { file: 'docs/protocol.md', block: '%ZZ', output: [' 400\n', ' 405\n', '-32601'] },
  {
    file: 'docs/record-and-proxy.md',
    block: 'client.sh',
    output: [
      'Recorded 2 conversation(s) into 2 scenario(s) and an agent file',
      'The calls as HAR: calls.har',
      'no secret was written',
      'ok: 2 scenario(s), 1 agent(s) valid',
      '"name":"Weather report (recorded)"',
    ],
  },
  {
    file: 'docs/record-and-proxy.md',
    block: 'parcel.yaml',
    output: ['Your parcel is out for delivery.', '"kind":"drop"', '"state":"TASK_STATE_COMPLETED"'],
  },
  {
    file: 'docs/verdicts.md',
    block: 'checkout-web',
    output: ['"client":"checkout-web"', '"rule":"card-revalidation"', '"outcome":"fail"'],
  },
  {
    file: 'docs/verdicts.md',
    block: 'client.sh',
    output: ['TASK_STATE_COMPLETED', 'pass   MUST   retry-after', 'exam passed', 'name="retry-after"'],
  },
  { file: 'docs/cli.md', block: '--speed abc', output: ['--speed', 'exit code 2'] },
  {
    file: 'docs/cli.md',
    block: '--log-format json',
    output: ['listening on', '"demo", speed 0', 'A scripted mock A2A agent'],
  },
  { file: 'docs/cli.md', block: 'list --json', output: ['ok: ', 'auth-required', 'completed'] },
  {
    file: 'docs/docker.md',
    block: 'built-in scenarios',
    output: ['Successfully tagged a2a-sim', 'listening on'],
  },
  { file: 'docs/docker.md', block: '/scenarios', output: ['listening on', '"demo", speed 1'] },
  { file: 'docs/docker.md', block: 'A2A_SIM_ADMIN_TOKEN', output: ['listening on', '"status":"ok"'] },
  {
    file: 'docs/replicas.md',
    block: '--store redis://',
    output: ['as replica', '"kind":"redis"', '"up":true'],
  },
];

/** Lines that start a server: after any `VAR=value` words (and `npm ci && `), the command. */
const SERVER_LINE =
  /^((?:[A-Z][A-Z0-9_]*=\S*\s+)*)(?:npm start\b|(?:npx\s+)?a2a-sim(?:\s+serve\b|\s+-|\s*$|\s+#)|node\s+(?:--\S+\s+)*dist\/cli\/main\.js(?:\s+serve\b|\s+-|\s*$|\s+#)|docker\s+run\b)/;

/** The block as bash runs it, and whether it starts servers of its own. */
function prepare(
  block: Block,
  port: number,
  agentPort = 0,
  redisPort = 0,
): { script: string; ownServer: boolean } {
  let lines = block.text.split('\n');
  if (block.lang === 'console') lines = lines.filter((l) => l.startsWith('$ ')).map((l) => l.slice(2));
  let heredoc: string | undefined;
  let ownServer = false;
  const out = lines.map((raw) => {
    if (heredoc !== undefined) {
      if (raw === heredoc) heredoc = undefined;
      return raw;
    }
    heredoc = /<<-?\s*'?"?(\w+)'?"?/.exec(raw)?.[1];
    const indent = /^\s*/.exec(raw)![0];
    const line = raw.slice(indent.length).replace(/^npm ci && /, '');
    if (!SERVER_LINE.test(line)) return raw;
    ownServer = true;
    const rewritten = line
      .replace(/(^|\s)A2A_SIM_PORT=\d+/, `$1A2A_SIM_PORT=${port}`)
      .replace(/(\s(?:--port|-p)[\s=])\d+(?=\s|$)/g, `$1${port}`)
      .replace(/(\s(?:-p|--publish)\s)\d+:/g, `$1${port}:`);
    return `${indent}__docs_serve ${rewritten}`;
  });
  const script = out
    .join('\n')
    .replace(/\b(127\.0\.0\.1|localhost):41241\b/g, `$1:${port}`)
    .replace(/\b(127\.0\.0\.1|localhost):41242\b/g, `$1:${agentPort}`)
    .replace(/\b(127\.0\.0\.1|localhost):6379\b/g, `$1:${redisPort}`);
  return { script, ownServer };
}

/**
 * Runs before each block. `__docs_serve CMD...` starts CMD in a process group of its own, its
 * output in a file, and returns once it prints `listening on` (or with its exit code, and its
 * output, if it ends first: `--help`, a refused option). `__docs_stop` stops it.
 */
const PRELUDE = String.raw`
__docs_pid=
__docs_log=
__docs_seen=0
__docs_stop() {
  if [ -n "$__docs_pid" ]; then
    kill -TERM -- "-$__docs_pid" 2>/dev/null || true
    wait "$__docs_pid" 2>/dev/null || true
    echo "--- the server's log, after its banner:" >&2
    tail -c "+$((__docs_seen + 1))" "$__docs_log" >&2
    __docs_pid=
  fi
}
trap __docs_stop EXIT
__docs_serve() {
  __docs_stop
  __docs_log=$(mktemp "$DOCS_TMP/server.XXXXXX")
  set -m
  env A2A_SIM_PORT="$DOCS_PORT" A2A_SIM_SPEED=0 "$@" >"$__docs_log" 2>&1 &
  __docs_pid=$!
  set +m
  echo "$__docs_pid" >>"$DOCS_PIDS"
  until grep -q 'listening on' "$__docs_log"; do
    if ! kill -0 "$__docs_pid" 2>/dev/null; then
      local code=0
      wait "$__docs_pid" || code=$?
      cat "$__docs_log"
      __docs_pid=
      return "$code"
    fi
    sleep 0.05
  done
  cat "$__docs_log"
  __docs_seen=$(wc -c <"$__docs_log")
}
`;

/** The first executable named `name` on PATH. */
function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

let work: string;
let sandbox: string;
let bin: string;
let shared: ReturnType<typeof serve>;
let sharedPort: number;
let redis: RedisServer;
let statusBefore: string[] | undefined;

async function writeScript(path: string, text: string) {
  await writeFile(path, text, { mode: 0o755 });
}

beforeAll(async () => {
  statusBefore = checkoutStatus();
  work = await mkdtemp(join(tmpdir(), 'a2a-sim-docs-'));
  sandbox = await copyCheckout(join(work, 'checkout'), SANDBOX);
  bin = join(work, 'bin');
  await mkdir(bin);
  await mkdir(join(work, 'images'));
  const node = process.execPath;
  const npm = which('npm');
  const npx = which('npx');
  await writeScript(join(bin, 'a2a-sim'), `#!/bin/sh\nexec "${node}" "${CLI}" "$@"\n`);
  await writeScript(
    join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = a2a-sim ]; then shift; exec "${node}" "${CLI}" "$@"; fi\n` +
      (npx ? `exec "${npx}" "$@"\n` : `echo "npx: not found" >&2; exit 127\n`),
  );
  const checkTest = `const { scripts } = require(${JSON.stringify(join(ROOT, 'package.json'))});
    if (!/\\bvitest run\\b/.test(scripts.test ?? '')) { console.error('npm test does not run vitest: ' + scripts.test); process.exit(1); }
    console.log('npm test: "' + scripts.test + '" (the suite this test is part of)');`;
  await writeScript(
    join(bin, 'npm'),
    `#!/bin/sh\nif [ "$*" = test ]; then exec "${node}" -e '${checkTest.replace(/'/g, `'\\''`)}'; fi\n` +
      (npm ? `exec "${npm}" "$@"\n` : `echo "npm: not found" >&2; exit 127\n`),
  );
  await writeScript(
    join(bin, 'docker'),
    `#!/bin/sh\nexec "${node}" "${join(ROOT, 'test/docs/fake-docker.mjs')}" "$@"\n`,
  );
  shared = serve(['serve', '--port', '0', '--speed', '0']);
  sharedPort = Number(new URL(await shared.url).port);
  redis = await startRedis();
});

afterAll(async () => {
  await shared?.stop();
  await redis?.stop();
  if (work) await rm(work, { recursive: true, force: true });
  const changes = checkoutChanges(statusBefore);
  expect(changes, `the checkout's git status changed while the examples ran:\n${changes.join('\n')}`).toEqual(
    [],
  );
});

/** Kills what a block may have left running: its servers' groups, then its own. */
function killGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function runBlock(block: Block): Promise<{ code: number | null; output: string }> {
  const dir = await mkdtemp(join(work, 'block-'));
  const cwd = join(dir, 'cwd');
  await mkdir(cwd);
  for (const name of readdirSync(sandbox)) await symlink(join(sandbox, name), join(cwd, name));
  const probe = prepare(block, 0);
  const port = probe.ownServer ? await freePort() : sharedPort;
  const { script } = prepare(block, port, sharedPort, redis.port);
  const pids = join(dir, 'servers');
  await writeFile(pids, '');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('A2A_SIM_')) env[key] = value;
  }
  Object.assign(env, {
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    DOCS_TMP: dir,
    DOCS_PORT: String(port),
    DOCS_PIDS: pids,
    DOCKER_FAKE_IMAGES: join(work, 'images'),
    npm_config_update_notifier: 'false',
  });
  const child = spawn('bash', ['-euo', 'pipefail', '-c', `${PRELUDE}\n${script}`], {
    cwd,
    env,
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => {
    output += `\n(stopped after ${BLOCK_TIMEOUT_MS} ms)`;
    killGroup(child.pid!);
  }, BLOCK_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  for (const pid of readFileSync(pids, 'utf8').split('\n').filter(Boolean)) killGroup(Number(pid));
  killGroup(child.pid!);
  await new Promise((resolve) => (child.stdout.closed ? resolve(null) : child.stdout.on('close', resolve)));
  await rm(dir, { recursive: true, force: true });
  return { code, output };
}

/**
 * Blocks that start servers of their own and share nothing with another block, so they can run
 * beside each other: not Docker's (a block runs the image an earlier one built) nor Redis's (they
 * share its keys), nor those that talk to the shared simulator (another block may change its chaos).
 */
function apart(block: Block): boolean {
  return (
    prepare(block, 0).ownServer && block.file !== 'docs/docker.md' && !/:(6379|41242)\b/.test(block.text)
  );
}

const APART_AT_ONCE = 3;

/** Runs at most `n` of the works given to it at once, the others waiting their turn. */
function slotsOf(n: number): <T>(work: () => Promise<T>) => Promise<T> {
  let free = n;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free--;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

describe('the shell examples of README.md and docs/', () => {
  it('finds blocks in the README and in every docs page that has examples', () => {
    expect(BLOCKS.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(5);
    expect(BLOCKS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(EXPECTED)('has the block of $file with "$block"', ({ file, block }) => {
    expect(BLOCKS.filter((b) => b.file === file && b.text.includes(block)).length).toBeGreaterThan(0);
  });

  const check = async (block: Block) => {
    const { code, output } = await runBlock(block);
    expect(code, `the block ended with ${code}; its output:\n${output}`).toBe(0);
    for (const { output: expected } of EXPECTED.filter(
      (e) => e.file === block.file && block.text.includes(e.block),
    )) {
      for (const text of expected) expect(output).toContain(text);
    }
  };
  const named = (blocks: Block[]) => blocks.map((block) => [`${block.file}:${block.line}`, block] as const);

  it.each(named(BLOCKS.filter((b) => !apart(b))))(
    '%s runs',
    (_, block) => check(block),
    BLOCK_TIMEOUT_MS + 10_000,
  );

  // Most of their time is their servers' start: a few at once, each with a slot of its own.
  const slots = slotsOf(APART_AT_ONCE);
  it.concurrent.each(named(BLOCKS.filter(apart)))(
    '%s runs',
    (_, block) => slots(() => check(block)),
    BLOCK_TIMEOUT_MS * 2 + 10_000,
  );
});
