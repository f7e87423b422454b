/**
 * A recorded conversation as a scenario script: the agent's events become steps with the delays
 * observed before them, an input-required pause becomes an input step whose branch holds the turn
 * its answer started, and an artifact sent in chunks stays in the same chunks, each gap between
 * them kept as observed. Recordings of the same conversation merge: their delays become the range
 * they spanned, their different answers to one question become branches of the same input step.
 */
import type { JsonValue, Part, TaskEvent, TaskState } from '../domain/types.js';
import { textOf } from '../engine/plan.js';
import type { Turn } from './conversations.js';

/** Observed delays, ms, one per recording merged. */
type Delays = number[];

export type RecordedStep =
  | { kind: 'status'; state: TaskState; message?: Part[]; after: Delays }
  | {
      kind: 'artifact';
      name?: string;
      description?: string;
      chunks: Part[][];
      after: Delays;
      /**
       * One entry per gap between chunks, in order: a stream's pace is in its gaps, so a replay
       * that drew every gap from their overall range would keep none of it.
       */
      every: Delays[];
    }
  | {
      kind: 'input';
      state: 'input-required' | 'auth-required';
      message?: Part[];
      after: Delays;
      branches: RecordedBranch[];
    };

export interface RecordedBranch {
  /** The user's answer, as the condition that selects this branch. */
  text: string;
  steps: RecordedStep[];
}

/** What in the agent's words came from the conversation, to be written as a template reference. */
interface Echoes {
  input: string;
  taskId: string;
  contextId: string;
}

/** The steps of the turns from `index` on; a turn that ends waiting for input holds the next one. */
export function stepsOf(turns: readonly Turn[], index: number, ids: Omit<Echoes, 'input'>): RecordedStep[] {
  const turn = turns[index]!;
  const echoes: Echoes = { ...ids, input: textOf(turn.message) };
  const steps: RecordedStep[] = [];
  let previous = turn.sentAtMs;
  for (const { atMs, event } of turn.events) {
    if (event.kind === 'task') continue;
    const after = Math.max(0, atMs - previous);
    previous = atMs;
    const step = stepOf(event, after, echoes);
    const last = steps.at(-1);
    if (step.kind === 'artifact' && last?.kind === 'artifact' && event.kind === 'artifact' && event.append) {
      last.chunks.push(step.chunks[0]!);
      last.every.push([after]);
      continue;
    }
    steps.push(step);
  }
  const last = steps.at(-1);
  const next = turns[index + 1];
  if (last?.kind === 'input' && next) {
    last.branches.push({ text: textOf(next.message), steps: stepsOf(turns, index + 1, ids) });
  }
  return steps;
}

function stepOf(event: Exclude<TaskEvent, { kind: 'task' }>, after: number, echoes: Echoes): RecordedStep {
  if (event.kind === 'artifact') {
    const { name, description } = event.artifact;
    return {
      kind: 'artifact',
      ...(name && { name: templated(name, echoes) }),
      ...(description && { description: templated(description, echoes) }),
      chunks: [event.artifact.parts.map((part) => partOf(part, echoes))],
      after: [after],
      every: [],
    };
  }
  const { state, message } = event.status;
  const parts = message?.parts.map((part) => partOf(part, echoes));
  const content = parts?.length ? { message: parts } : {};
  if (state === 'input-required' || state === 'auth-required') {
    return { kind: 'input', state, ...content, after: [after], branches: [] };
  }
  return { kind: 'status', state, ...content, after: [after] };
}

/**
 * The `canceled` status a client's cancel brought about. It stays a step too: what the agent would
 * have done had nobody canceled was never seen, and a script must end.
 */
function isCancelOutcome(turn: Turn, atMs: number, event: TaskEvent): boolean {
  return (
    turn.cancelAtMs !== undefined &&
    atMs >= turn.cancelAtMs &&
    event.kind === 'status' &&
    event.status.state === 'canceled'
  );
}

export interface RecordedCancel {
  /** From the client's cancel to the agent's `canceled`, ms. */
  after: Delays;
  message?: string;
}

/** How the agent took a client's cancel, if a client canceled the conversation's task. */
export function cancelOf(turns: readonly Turn[]): RecordedCancel | undefined {
  for (const turn of turns) {
    const canceled = turn.events.find(({ atMs, event }) => isCancelOutcome(turn, atMs, event));
    if (!canceled || canceled.event.kind !== 'status') continue;
    const message = canceled.event.status.message && textOf(canceled.event.status.message);
    return { after: [canceled.atMs - turn.cancelAtMs!], ...(message && { message }) };
  }
  return undefined;
}

/** Merges `b` into `a` when they are the same script; false (and `a` unchanged) when they differ. */
export function mergeSteps(a: RecordedStep[], b: RecordedStep[]): boolean {
  if (shapeOf(a) !== shapeOf(b)) return false;
  a.forEach((step, i) => {
    const other = b[i]!;
    step.after.push(...other.after);
    if (step.kind === 'artifact' && other.kind === 'artifact') {
      step.every.forEach((gap, g) => gap.push(...other.every[g]!));
    }
    if (step.kind === 'input' && other.kind === 'input') {
      for (const branch of other.branches) {
        const same = step.branches.find((own) => own.text.toLowerCase() === branch.text.toLowerCase());
        // The same answer taking another course cannot be told apart by a condition: the first stays.
        if (!same) step.branches.push(branch);
        else mergeSteps(same.steps, branch.steps);
      }
    }
  });
  return true;
}

/** What a step list says, without its delays or the answers that follow its questions. */
function shapeOf(steps: RecordedStep[]): string {
  return JSON.stringify(
    steps.map((step) => {
      const { after: _after, ...rest } = step;
      if (rest.kind === 'artifact') return { ...rest, every: rest.every.length };
      if (rest.kind === 'input') return { ...rest, branches: undefined };
      return rest;
    }),
  );
}

/** A part of a direct reply as written: no echoes, every brace literal. */
export function literalPart(part: Part): Part {
  return partOf(part, { input: '', taskId: '', contextId: '' });
}

function partOf(part: Part, echoes: Echoes): Part {
  switch (part.kind) {
    case 'text':
      return { ...part, text: templated(part.text, echoes) };
    case 'url':
      return { ...part, url: templated(part.url, echoes) };
    case 'data':
      return { ...part, data: templatedData(part.data, echoes) };
    default:
      return part;
  }
}

function templatedData(value: JsonValue, echoes: Echoes): JsonValue {
  if (typeof value === 'string') return templated(value, echoes);
  if (Array.isArray(value)) return value.map((v) => templatedData(v, echoes));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, templatedData(v, echoes)]));
  }
  return value;
}

/**
 * The agent's words with what it echoed written as references: the user's text as
 * `{{input.text}}`, the task and context ids as `{{task.id}}` and `{{context.id}}`. Every other
 * brace stays what it was: see {@link literalText}.
 */
function templated(text: string, echoes: Echoes): string {
  const references: [string, string][] = [
    [echoes.taskId, '{{task.id}}'],
    [echoes.contextId, '{{context.id}}'],
  ];
  // Short inputs ("yes", "ok") would turn up inside unrelated words.
  if (echoes.input.trim().length >= 4) references.unshift([echoes.input.trim(), '{{input.text}}']);
  return written(
    text,
    references.filter(([found]) => found !== ''),
  );
}

/**
 * Text written so that it renders as itself. A template is whatever lies between a `{{` and the
 * first `}}` after it (scenario/template.ts), and the grammar has no escape but a value: so a
 * literal `{{` is written `{{pick "{{"}}`, and a lone `{` just before a template (which would make
 * `{{{task.id}}}`, a template reading `{task.id`) is written `{{pick "{"}}`. A `}` needs nothing: the
 * first `}}` closes the template, and what follows it is text.
 * @example literalText('{{x}}') // '{{pick "{{"}}x}}'
 */
export function literalText(text: string): string {
  return written(text, []);
}

function written(text: string, references: readonly [string, string][]): string {
  const referenceAt = (i: number) => references.find(([found]) => text.startsWith(found, i));
  let out = '';
  for (let i = 0; i < text.length;) {
    const hit = referenceAt(i);
    if (hit) {
      out += hit[1];
      i += hit[0].length;
    } else if (text.startsWith('{{', i)) {
      out += '{{pick "{{"}}';
      i += 2;
    } else if (text[i] === '{' && referenceAt(i + 1)) {
      out += '{{pick "{"}}';
      i += 1;
    } else {
      out += text[i++];
    }
  }
  return out;
}
