/**
 * `docker` for the documentation's shell examples (shell-examples.test.ts), where no Docker engine
 * runs. It does what the documented commands ask, from the repository's Dockerfile, and refuses
 * anything else, so an example cannot drift to options nobody runs:
 *
 * - `docker build -t NAME DIR`: DIR's Dockerfile must exist, and so must every file its `COPY`
 *   lines take from DIR. The image is then the runtime stage laid out in a directory, as
 *   test/cli/docker-layout.test.ts lays it out: its `COPY` lines, from this checkout's build
 *   (`dist/`, which `npm test` builds first) instead of the build stage's; packages are linked.
 * - `docker run [--rm] [-p HOST:CONTAINER] [-e K=V] [-v SRC:DST] NAME [ARGS]`: runs the image's
 *   ENTRYPOINT with ARGS (or its CMD) in that directory, with the image's ENV and the `-e` values
 *   only (nothing from this environment), in the foreground, as `docker run` without `-d` does.
 *   The container's port must be the one the server listens on; the server listens on HOST
 *   instead, on 127.0.0.1 where the image says 0.0.0.0 (a published port is reached over the
 *   host's loopback). A path under DST, in ARGS or in a `-e` value, is read under SRC.
 *
 * The images live in $DOCKER_FAKE_IMAGES, a directory the test makes.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IMAGES = process.env.DOCKER_FAKE_IMAGES;

function fail(message) {
  process.stderr.write(`docker (test stand-in): ${message}\n`);
  process.exit(125);
}

if (!IMAGES) fail('DOCKER_FAKE_IMAGES is not set');

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(dockerfile) {
  return readFileSync(dockerfile, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of the last stage (the image `docker build` tags). */
function runtimeStage(all) {
  const from = all.map((i) => i.keyword).lastIndexOf('FROM');
  return all.slice(from);
}

function build(args) {
  let name;
  let context;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-t' || args[i] === '--tag') name = args[++i];
    else if (args[i].startsWith('-')) fail(`build: unsupported option ${args[i]}`);
    else context = args[i];
  }
  if (!name || !context) fail('build: expected docker build -t NAME DIR');
  const dockerfile = join(context, 'Dockerfile');
  if (!existsSync(dockerfile)) fail(`build: no Dockerfile in ${context}`);
  const all = instructions(dockerfile);
  for (const { keyword, args: copy } of all) {
    if (keyword !== 'COPY' || copy.startsWith('--from=')) continue;
    const sources = copy.split(/\s+/).slice(0, -1);
    for (const source of sources) {
      if (!existsSync(join(context, source))) fail(`build: COPY ${source}: not found in ${context}`);
    }
  }
  const image = join(IMAGES, name);
  rmSync(image, { recursive: true, force: true });
  for (const { keyword, args: copy } of runtimeStage(all)) {
    if (keyword !== 'COPY') continue;
    const [from, to] = copy.replace(/^--from=\S+\s+/, '').split(/\s+/);
    const source = join(ROOT, from.replace(/^\/app\//, ''));
    const target = to.endsWith('/') ? join(image, to, basename(from)) : join(image, to);
    mkdirSync(dirname(target), { recursive: true });
    if (from.includes('node_modules/')) symlinkSync(source, target);
    else cpSync(source, target, { recursive: true });
  }
  process.stdout.write(`Successfully tagged ${name}:latest (test stand-in: ${image})\n`);
}

function run(args) {
  const publish = [];
  const env = {};
  const volumes = [];
  let i = 0;
  for (; i < args.length && args[i].startsWith('-'); i++) {
    const option = args[i];
    if (option === '--rm') continue;
    const value = args[++i];
    if (value === undefined) fail(`run: ${option} needs a value`);
    if (option === '-p' || option === '--publish') {
      const match = /^(\d+):(\d+)$/.exec(value);
      if (!match) fail(`run: -p ${value}: expected HOST:CONTAINER`);
      publish.push({ host: match[1], container: match[2] });
    } else if (option === '-e' || option === '--env') {
      const eq = value.indexOf('=');
      if (eq < 0) fail(`run: -e ${value}: expected K=V`);
      env[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (option === '-v' || option === '--volume') {
      const [source, target] = value.split(':');
      if (!isAbsolute(source) || !target) fail(`run: -v ${value}: expected /ABSOLUTE/SRC:/DST`);
      mkdirSync(source, { recursive: true }); // as Docker creates a missing bind-mount source
      volumes.push({ source, target });
    } else fail(`run: unsupported option ${option}`);
  }
  const name = args[i];
  if (!name) fail('run: expected an image');
  const image = join(IMAGES, name);
  if (!existsSync(image)) fail(`run: Unable to find image '${name}:latest' (build it first)`);
  const stage = runtimeStage(instructions(join(ROOT, 'Dockerfile')));
  const json = (keyword) => JSON.parse(stage.findLast((s) => s.keyword === keyword)?.args ?? '[]');
  const imageEnv = Object.fromEntries(
    stage
      .filter((s) => s.keyword === 'ENV')
      .flatMap((s) => s.args.split(/\s+/).map((pair) => pair.split('='))),
  );
  const inside = (value) => {
    for (const { source, target } of volumes) {
      if (value === target || value.startsWith(`${target}/`)) return source + value.slice(target.length);
    }
    return value;
  };
  const command = [...json('ENTRYPOINT'), ...(args.length > i + 1 ? args.slice(i + 1) : json('CMD'))].map(
    inside,
  );
  const containerEnv = {
    ...imageEnv,
    ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, inside(v)])),
  };
  if (containerEnv.A2A_SIM_HOST === '0.0.0.0') containerEnv.A2A_SIM_HOST = '127.0.0.1';
  const portFlag = command.findIndex((arg) => arg === '--port' || arg === '-p');
  const listening = portFlag >= 0 ? command[portFlag + 1] : containerEnv.A2A_SIM_PORT;
  for (const { host, container } of publish) {
    if (container !== listening)
      fail(`run: -p ${host}:${container}, but the container listens on ${listening}`);
    if (portFlag >= 0) command[portFlag + 1] = host;
    else containerEnv.A2A_SIM_PORT = host;
  }
  const [program, ...rest] = command;
  if (program !== 'node') fail(`run: the entrypoint is ${program}, expected node`);
  const child = spawn(process.execPath, rest, {
    cwd: resolve(image),
    stdio: 'inherit',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...containerEnv },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}

const [command, ...args] = process.argv.slice(2);
if (command === 'build') build(args);
else if (command === 'run') run(args);
else fail(`${command ?? '(none)'}: only build and run are stood in for`);
