/**
 * The GitHub Actions workflow of docs/verdicts.md, as written there: a workflow of the shape
 * GitHub reads, using GitHub's own actions only, whose `a2a-sim exam` line the built CLI accepts as
 * it stands (its flags, curricula and timeout) and whose JUnit file is the one the upload keeps.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI } from '../helpers/cli.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  jobs: Record<string, { 'runs-on': string; steps: Step[] }>;
}

const PAGE = fileURLToPath(new URL('../../docs/verdicts.md', import.meta.url));
const WORKFLOWS = [
  ...readFileSync(PAGE, 'utf8').matchAll(/^```yaml\n(# \.github\/workflows\/[\s\S]*?)^```$/gm),
].map((m) => m[1]!);
const exec = promisify(execFile);

describe('the GitHub Actions workflow in docs/verdicts.md', () => {
  it('is there once', () => {
    expect(WORKFLOWS).toHaveLength(1);
  });

  const workflow = parse(WORKFLOWS[0] ?? '{}') as Workflow;
  const steps = Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps);
  const exam = steps.find((step) => step.run?.includes('a2a-sim exam'));
  const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));

  it('has the shape GitHub reads: triggers, jobs with a runner, steps that each use an action or run a command', () => {
    expect(workflow.name).toEqual(expect.any(String));
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    for (const job of Object.values(workflow.jobs)) {
      expect(job['runs-on']).toEqual(expect.any(String));
      expect(job.steps.length).toBeGreaterThan(0);
      for (const step of job.steps) expect('uses' in step !== 'run' in step, JSON.stringify(step)).toBe(true);
    }
  });

  it("uses GitHub's own actions only, at a major version, and installs before the exam", () => {
    const uses = steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(uses.filter((action) => !/^actions\/[a-z-]+@v\d+$/.test(action))).toEqual([]);
    expect(uses).toEqual(expect.arrayContaining(['actions/checkout@v4', 'actions/setup-node@v4']));
    const install = steps.findIndex((step) => step.run === 'npm ci');
    expect(install).toBeGreaterThanOrEqual(0);
    expect(install).toBeLessThan(steps.indexOf(exam!));
  });

  it('uploads the JUnit file the exam writes, even when the exam failed', () => {
    const junit = /--junit\s+(\S+)/.exec(exam?.run ?? '')?.[1];
    expect(junit).toBeDefined();
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.['path']).toBe(junit);
    expect(steps.indexOf(upload!)).toBeGreaterThan(steps.indexOf(exam!));
  });

  it('runs an exam line the CLI accepts, and that writes the JUnit file', async () => {
    const [before, command] = exam!.run!.split(' -- ');
    expect(command).toBe('npm test');
    const args = before!.replace(/^npx a2a-sim /, '').split(/\s+/);
    expect(args[0]).toBe('exam');
    // The command here is one that calls nobody, so the exam fails for that and for nothing else.
    const dir = await mkdtemp(join(tmpdir(), 'a2a-sim-ci-'));
    try {
      const failed = await exec(process.execPath, [CLI, ...args, '--', 'true'], { cwd: dir }).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe('');
      expect(failed?.stdout).toMatch(
        /^a2a-sim exam: reconnect, errors at http:\/\/127\.0\.0\.1:\d+; running true$/m,
      );
      expect(failed?.stdout).toMatch(/^exam failed: no client called the simulator at \S+$/m);
      expect(existsSync(join(dir, upload!.with!['path'] as string))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
