/**
 * A scenario after loading: durations in milliseconds, regular expressions compiled, templates
 * parsed. The engine plans from this shape only; it never sees the raw file.
 */
import type { A2AErrorType } from '../domain/errors.js';
import type { JsonObject, JsonValue, TaskState } from '../domain/types.js';
import type { Pattern } from './pattern.js';
import type { DelaySpec } from '../lib/delay.js';
import type { Template } from './template.js';

/** Text that is either literal or a template to render. */
export type Text = string | Template;

/** JSON whose strings may be templates. */
export type DataTemplate = JsonValue | Template | DataTemplate[] | { [key: string]: DataTemplate };

interface PartTemplateCommon {
  metadata?: JsonObject;
  mediaType?: string;
  filename?: string;
}

export type PartTemplate =
  | (PartTemplateCommon & { kind: 'text'; text: Text })
  | (PartTemplateCommon & { kind: 'data'; data: DataTemplate })
  | (PartTemplateCommon & { kind: 'bytes'; bytes: string })
  | (PartTemplateCommon & { kind: 'url'; url: Text });

export interface Condition {
  /** A case-insensitive substring (native: a literal cannot backtrack), or a scenario's own pattern. */
  text?: RegExp | Pattern;
  /** Built by the loader from plain words: linear on the native engine. */
  keywords?: RegExp;
  /** The words `keywords` was built from, for people reading the rule. */
  keywordList?: readonly string[];
  messageIdPrefix?: string;
  messageIdRegex?: Pattern;
  metadata?: [string, JsonValue][];
  skill?: string;
}

/**
 * Where the script goes from a step: the index of the next step in {@link Script} `steps`, or
 * {@link END} when there is none (the loader refuses a script that can get there).
 */
export type Next = number;
export const END: Next = -1;

export type Step = (
  | { kind: 'status'; state: TaskState; message?: PartTemplate[]; after: DelaySpec }
  | {
      kind: 'artifact';
      id?: Text;
      name?: Text;
      description?: Text;
      metadata?: JsonObject;
      /** The forms it comes in; a plain artifact has one, without a media type. */
      variants: ArtifactVariant[];
      /** The first chunk's `append` flag; the later ones always append. */
      append: boolean;
      /** The delay before chunk `i > 0` is `every[(i - 1) % every.length]`. */
      every: DelaySpec[];
      after: DelaySpec;
    }
  | { kind: 'wait'; delay: DelaySpec }
  | {
      kind: 'input';
      state: 'input-required' | 'auth-required';
      message?: PartTemplate[];
      /** Tried in order on the follow-up; when none holds, the script goes on at `next`. */
      branches: Branch[];
      after: DelaySpec;
    }
) & { next: Next };

/** One form of an artifact: the client's acceptedOutputModes choose by `mediaType` (none: anyone). */
export interface ArtifactVariant {
  mediaType?: string;
  /** One entry per artifact-update event; a plain artifact is a single chunk. */
  chunks: PartTemplate[][];
}

/** One form of a reply, chosen as an artifact's variants are. */
export interface ReplyVariant {
  mediaType?: string;
  message: PartTemplate[];
}

export interface Branch {
  when: Condition;
  /** Its first step; or, for a branch without steps, where its `goto` or `repeat` leads. */
  next: Next;
}

export interface SkillInfo {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  extended: boolean;
}

export interface CancelPolicy {
  allowed: boolean;
  /** How long a cancel takes to take effect; the task keeps working meanwhile. */
  after: DelaySpec;
  message?: PartTemplate[];
}

export type Script =
  /**
   * Every step of the file in one list, the top-level ones first; the script starts at the first
   * and each step names the next, so branches, jumps and repeated questions are all just `next`.
   */
  | { kind: 'steps'; steps: Step[] }
  | { kind: 'reply'; variants: ReplyVariant[]; after: DelaySpec }
  /** A protocol error instead of a task; without a message, the error table's. */
  | { kind: 'error'; type: A2AErrorType; message?: Text; after: DelaySpec };

export interface Scenario {
  /** The file name without extension. */
  id: string;
  file: string;
  description: string;
  priority: number;
  fallback: boolean;
  skill: SkillInfo | undefined;
  match: Condition[];
  cancel: CancelPolicy;
  /** Rendered at the start of every turn, in order; templates read them as `{{vars.name}}`. */
  vars: [string, DataTemplate][];
  script: Script;
  usesFaker: boolean;
  /**
   * The media types of each artifact or reply written with `variants`: a message whose
   * acceptedOutputModes accept none of one list is refused before any task exists.
   */
  variantTypes: string[][];
  /**
   * The chaos this scenario's tasks meet on the wire, unless a request says otherwise: a profile
   * name or `key=value` pairs, as written. The chaos layer reads it.
   */
  chaos?: string;
}
