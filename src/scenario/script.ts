/**
 * A scenario's steps as the engine walks them: one flat list in which every step names the step
 * that follows it (`next`). A branch then ends by jumping (`goto`), by asking its question again
 * (`repeat`) or by going on after its input step, all in the same way, and the engine's state
 * between turns is one index.
 *
 * Built here from the nested file shape, with the checks that need the whole graph: step ids
 * (unique, and every `goto` names one), steps that nothing reaches, loops that never pause, and
 * ways through the script that run out of steps.
 */
import { isTerminal } from '../domain/lifecycle.js';
import type { TaskState } from '../domain/types.js';
import { formatPath, type IssuePath } from '../lib/yaml-file.js';
import { END, type Branch, type Condition, type Next, type Step } from './model.js';
import type { RawCondition, RawInputStep, RawStep } from './schema.js';

/** What the scenario compiler lends the script builder. */
export interface ScriptCompiler {
  /** The step's own fields, with `next: END` and no branches: the builder links them. */
  step(raw: RawStep, path: IssuePath): Step;
  condition(raw: RawCondition, path: IssuePath): Condition;
  report(path: IssuePath, message: string): void;
}

/** Flattens `raw` (the file's `steps`) into linked steps, reporting what cannot run. */
export function buildScript(raw: readonly RawStep[], compiler: ScriptCompiler): Step[] {
  const builder = new ScriptBuilder(compiler);
  builder.list(raw, ['steps'], END);
  // With a jump left dangling, the endings it breaks would only repeat its issue.
  if (builder.resolveGotos()) builder.checkEndings();
  return builder.steps;
}

/** Where a list of steps goes once it is done: a step, or a step id still to resolve. */
type Target = Next | { goto: string; path: IssuePath };

class ScriptBuilder {
  readonly steps: Step[] = [];
  /** Per step: where it is in the file, and the step before it in its list. */
  private readonly paths: IssuePath[] = [];
  private readonly previous: (number | undefined)[] = [];
  private readonly ids = new Map<string, number>();
  private readonly gotos: { target: { goto: string; path: IssuePath }; link: (at: Next) => void }[] = [];

  constructor(private readonly compiler: ScriptCompiler) {}

  /**
   * Adds a list of steps, then its branches (so a list's steps sit together), and returns where
   * the list starts: its first step, or `after` when it is empty.
   */
  list(raw: readonly RawStep[], path: IssuePath, after: Target): Target {
    const at = raw.map((step, i) => this.add(step, [...path, i]));
    at.forEach((index, i) => {
      const next = at[i + 1] ?? after;
      const step = this.steps[index]!;
      this.previous[index] = at[i - 1];
      this.link(next, (to) => (step.next = to));
      const source = raw[i]!;
      if (step.kind === 'input' && 'input' in source) {
        step.branches = this.branches(source, index, next, [...path, i, 'input']);
      }
    });
    return at[0] ?? after;
  }

  /**
   * An input step's branches, each leading to its first step. A branch's end leads to its `goto`,
   * else back to the input step when it repeats, else on to what follows the input step (`next`).
   */
  private branches(raw: RawInputStep, input: number, next: Target, path: IssuePath): Branch[] {
    const { branches = [], repeat = false } = raw.input;
    return branches.map((branch, b) => {
      const at = [...path, 'branches', b];
      if (!branch.steps && branch.goto === undefined && !repeat) {
        this.compiler.report(at, 'a branch needs "steps", a "goto", or "repeat: true" on its input step');
      }
      const end: Target =
        branch.goto !== undefined ? { goto: branch.goto, path: [...at, 'goto'] } : repeat ? input : next;
      const compiled: Branch = { when: this.compiler.condition(branch.when, [...at, 'when']), next: END };
      this.link(this.list(branch.steps ?? [], [...at, 'steps'], end), (to) => (compiled.next = to));
      return compiled;
    });
  }

  /** Links every `goto` to its step; false when some name no step. */
  resolveGotos(): boolean {
    let resolved = true;
    for (const { target, link } of this.gotos) {
      const at = this.ids.get(target.goto);
      if (at !== undefined) link(at);
      else {
        resolved = false;
        const known = [...this.ids.keys()].map((id) => `"${id}"`).join(', ');
        this.compiler.report(
          target.path,
          `no step has the id "${target.goto}"; ${known ? `step ids: ${known}` : 'give the target step an "id"'}`,
        );
      }
    }
    return resolved;
  }

  /**
   * Every way through a turn must end the task or pause it for input, without coming back to a
   * step it already ran in that turn; nothing may sit where no way leads. A turn never branches
   * (branches are chosen when a follow-up arrives), so each way is a chain of `next`s, walked from
   * the start and from every place a follow-up resumes at.
   */
  checkEndings(): void {
    const reached = new Set<number>();
    const pending: { from: Next; state: TaskState }[] = [{ from: 0, state: 'submitted' }];
    while (pending.length) {
      const { from, state } = pending.pop()!;
      const input = this.walk(from, state, reached);
      if (input === undefined) continue;
      const step = this.steps[input] as Extract<Step, { kind: 'input' }>;
      if (step.next === END) {
        this.compiler.report(
          this.paths[input]!,
          'nothing follows this input step: add the steps that run once the user answers',
        );
      } else {
        pending.push({ from: step.next, state: step.state });
      }
      for (const branch of step.branches) pending.push({ from: branch.next, state: step.state });
    }
    this.reportUnreachable(reached);
  }

  /** Follows `next` from `from` to the end of the turn; returns the input step it pauses at, if any. */
  private walk(from: Next, state: TaskState, reached: Set<number>): number | undefined {
    const chain = new Set<number>();
    let last: number | undefined;
    for (let at = from; ; at = this.steps[at]!.next) {
      if (at === END) {
        this.compiler.report(
          last === undefined ? ['steps'] : this.paths[last]!,
          `the script ends while the task is "${state}": end it with a terminal status (completed, failed, canceled, rejected) or an input step`,
        );
        return undefined;
      }
      if (chain.has(at)) {
        this.compiler.report(
          this.paths[last!]!,
          `this goes back to ${formatPath(this.paths[at]!)} without pausing for input: the loop would never end; put an input step in it`,
        );
        return undefined;
      }
      // A step already walked from here on was checked, on this way or another.
      if (reached.has(at)) return undefined;
      chain.add(at);
      reached.add(at);
      last = at;
      const step = this.steps[at]!;
      if (step.kind === 'input') return at;
      if (step.kind === 'status') {
        state = step.state;
        if (isTerminal(state)) return undefined;
      }
    }
  }

  /** Only the first step of each unreachable stretch: the rest follows from it. */
  private reportUnreachable(reached: Set<number>): void {
    this.steps.forEach((_, at) => {
      const before = this.previous[at];
      if (reached.has(at) || before === undefined || !reached.has(before)) return;
      const ended = this.steps[before]!;
      const why =
        ended.kind === 'status' && isTerminal(ended.state)
          ? `the task already ended as "${ended.state}" at ${formatPath(this.paths[before]!)}`
          : 'no way through the script leads here';
      this.compiler.report(this.paths[at]!, `unreachable: ${why}`);
    });
  }

  private add(raw: RawStep, path: IssuePath): number {
    const index = this.steps.length;
    this.steps.push(this.compiler.step(raw, path));
    this.paths.push(path);
    if (raw.id !== undefined) {
      const taken = this.ids.get(raw.id);
      if (taken === undefined) this.ids.set(raw.id, index);
      else {
        this.compiler.report(
          [...path, 'id'],
          `the step id "${raw.id}" is already used at ${formatPath(this.paths[taken]!)}`,
        );
      }
    }
    return index;
  }

  private link(target: Target, set: (at: Next) => void): void {
    if (typeof target === 'number') set(target);
    else this.gotos.push({ target, link: set });
  }
}
