// `npm start`'s first step: builds when there is no build yet (a fresh clone after `npm ci`), and
// otherwise starts at once. The build is not a `prepare` script, which npm runs, and warns about,
// when a package is installed from a tarball or from git: installing a2a-sim runs nothing of ours.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) {
  const npm = process.env.npm_execpath;
  const { status } = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build', '--silent'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', shell: true });
  process.exit(status ?? 1);
}
