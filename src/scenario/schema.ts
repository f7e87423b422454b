/**
 * The scenario file format, as one zod schema: the loader validates with it, TypeScript infers the
 * raw types from it, and `npm run schema` writes `scenarios/scenario.schema.json` from it for editors.
 */
import * as z from 'zod';
import { ERROR_TABLE, type A2AErrorType } from '../domain/errors.js';
import { TASK_STATES, type JsonValue } from '../domain/types.js';
import { Delay } from '../lib/delay.js';
import { closestName } from '../lib/spelling.js';

export const Json: z.ZodType<JsonValue> = z
  .lazy(() =>
    z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(Json), z.record(z.string(), Json)]),
  )
  .meta({ id: 'Json', description: 'Any JSON value.' });

const Metadata = z.record(z.string(), Json);

const PartCommon = {
  metadata: Metadata.optional(),
  mediaType: z.string().optional(),
  filename: z.string().optional(),
};

export const Part = z
  .union([
    z.strictObject({ text: z.string(), ...PartCommon }),
    z.strictObject({ data: Json, ...PartCommon }),
    z.strictObject({
      raw: z.base64({ error: 'expected base64-encoded file content' }),
      ...PartCommon,
    }),
    z.strictObject({ url: z.string(), ...PartCommon }),
  ])
  .meta({
    id: 'Part',
    description:
      'One part, as in A2A v1.0: {text}, {data}, {raw (base64)} or {url}. Strings may hold {{templates}}.',
  });

export const MessageContent = z
  .union([z.string(), z.array(Part).min(1)])
  .meta({ id: 'MessageContent', description: 'A text (one text part) or a list of parts.' });

export const Condition = z
  .strictObject({
    text: z
      .string()
      .optional()
      .meta({ description: 'A case-insensitive substring, or a regular expression written /like this/i.' }),
    keywords: z
      .array(z.string())
      .min(1)
      .optional()
      .meta({ description: 'Matches when any keyword appears as a word.' }),
    messageId: z
      .strictObject({ prefix: z.string().optional(), regex: z.string().optional() })
      .optional()
      .meta({ description: 'A prefix of, or a regular expression on, the message id.' }),
    metadata: Metadata.optional().meta({
      description:
        'Keys the message (or request) metadata must hold, with these values; "*" accepts any value.',
    }),
    skill: z.string().optional().meta({ description: 'Matches metadata.skillId on the message or request.' }),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), {
    error: 'a match rule needs at least one condition',
  })
  .meta({ id: 'Condition', description: 'Conditions on the user message; all given must hold.' });

const after = Delay.optional().meta({ description: 'Delay before this step.' });

const STEP_ID_HINT = 'a step id is letters, digits, "-", "_" and "."';

/** A step's name, for a branch's `goto`; artifacts have an `id` of their own, inside `artifact`. */
const id = z
  .string()
  .regex(/^[A-Za-z0-9_][\w.-]*$/, { error: STEP_ID_HINT })
  .optional()
  .meta({ description: 'Names the step, so that a branch can jump to it with "goto".' });

export const StatusStep = z.strictObject({
  id,
  status: z.enum(TASK_STATES),
  message: MessageContent.optional().meta({ description: 'The agent message carried by the status update.' }),
  after,
});

const MEDIA_TYPE_HINT = 'expected a media type such as "application/json"';
const mediaType = z
  .string({ error: MEDIA_TYPE_HINT })
  .regex(/^[\w.+-]+\/[\w.+-]+$/, { error: MEDIA_TYPE_HINT })
  .meta({ description: "What this variant is, matched against the client's acceptedOutputModes." });

const parts = z.array(Part).min(1);
const chunks = z
  .array(z.union([z.string(), z.array(Part).min(1)]))
  .min(1)
  .meta({
    description: 'Stream the artifact in chunks (append / lastChunk): each a text or a list of parts.',
  });

/** Exactly one of the keys is given. */
const oneOf =
  <K extends string>(...keys: K[]) =>
  (value: Partial<Record<K, unknown>>) =>
    keys.filter((key) => value[key] !== undefined).length === 1;

export const ArtifactStep = z.strictObject({
  id,
  artifact: z
    .strictObject({
      id: z.string().optional().meta({ description: 'Artifact id; generated from the seed when omitted.' }),
      name: z.string().optional(),
      description: z.string().optional(),
      metadata: Metadata.optional(),
      parts: parts.optional(),
      chunks: chunks.optional(),
      variants: z
        .array(
          z
            .strictObject({ mediaType, parts: parts.optional(), chunks: chunks.optional() })
            .refine(oneOf('parts', 'chunks'), { error: 'a variant needs either "parts" or "chunks"' }),
        )
        .min(1)
        .optional()
        .meta({
          description:
            "The same artifact in several media types: the first the client's acceptedOutputModes accept is sent (the first of all without them); accepting none refuses the message with ContentTypeNotSupportedError.",
        }),
      every: z
        .union([Delay, z.array(Delay).min(1)])
        .optional()
        .meta({
          description:
            "Delay between chunks: one for every gap, or a list with one per gap in order (a recording's observed gaps), read again from its start when the chunks outnumber it.",
        }),
      append: z.boolean().optional().meta({
        description:
          'Send the first chunk with append: true too (later chunks always append): it adds to an artifact with the same id sent before, or starts one. Default: false.',
      }),
    })
    .refine(oneOf('parts', 'chunks', 'variants'), {
      error: 'an artifact needs exactly one of "parts", "chunks" or "variants"',
    }),
  after,
});

export const WaitStep = z.strictObject({ id, wait: Delay });

export interface RawBranch {
  when: z.infer<typeof Condition>;
  steps?: RawStep[];
  goto?: string;
}

export interface RawInputStep {
  id?: string;
  input: {
    state?: 'input-required' | 'auth-required';
    message?: z.infer<typeof MessageContent>;
    branches?: RawBranch[];
    repeat?: boolean;
  };
  after?: z.infer<typeof Delay>;
}

export type RawStep =
  z.infer<typeof StatusStep> | z.infer<typeof ArtifactStep> | z.infer<typeof WaitStep> | RawInputStep;

export const Step: z.ZodType<RawStep> = z
  .lazy(() => z.union([StatusStep, ArtifactStep, WaitStep, InputStep]))
  .meta({
    id: 'Step',
    description: 'One step of the script: status, artifact, wait or input, with an optional "after" delay.',
  });

const Branch: z.ZodType<RawBranch> = z.lazy(() =>
  z.strictObject({
    when: Condition,
    steps: z.array(Step).min(1).optional(),
    goto: z.string().optional().meta({
      description:
        'After the steps (if any), go on at the step with this id: ask an earlier question again, or skip ahead.',
    }),
  }),
);

export const InputStep = z.strictObject({
  id,
  input: z.strictObject({
    state: z
      .enum(['input-required', 'auth-required'])
      .optional()
      .meta({ description: 'Default: input-required.' }),
    message: MessageContent.optional().meta({
      description: 'What the agent asks for; without it, the status update carries no message.',
    }),
    branches: z
      .array(Branch)
      .min(1)
      .optional()
      .meta({ description: 'Tried in order on the follow-up; none matching continues after this step.' }),
    repeat: z.boolean().optional().meta({
      description:
        'After a branch without a "goto" runs, ask this question again (a branch may then have no steps). An answer no branch matches still continues after this step. Default: false.',
    }),
  }),
  after,
});

// A draft's error is answered only where its preview is played (`--preview generation`), never by a scenario.
const ERROR_TYPES = (Object.keys(ERROR_TABLE) as A2AErrorType[]).filter(
  (type) => type !== 'TaskGenerationMismatchError',
) as [A2AErrorType, ...A2AErrorType[]];

export const ErrorAnswer = z
  .strictObject({
    type: z
      .enum(ERROR_TYPES, {
        error: (issue) => {
          if (typeof issue.input !== 'string') return 'expected an A2A error type, e.g. "InvalidParamsError"';
          const guess = closestName(issue.input, ERROR_TYPES);
          return `"${issue.input}" is not an A2A error type${guess ? `; did you mean "${guess}"?` : ''}`;
        },
      })
      .meta({ description: 'The error, by its A2A name; each binding answers it in its own shape.' }),
    message: z.string().optional().meta({
      description: "The error's message; may hold {{templates}}. Default: the error's standard message.",
    }),
    after: Delay.optional().meta({ description: 'Delay before the error answers.' }),
  })
  .meta({
    description: 'Answer the message that selects this scenario with a protocol error: no task is created.',
  });

export const Skill = z.strictObject({
  id: z.string().optional().meta({ description: 'Defaults to the scenario id.' }),
  name: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
  extended: z.boolean().optional().meta({ description: 'Listed only on the extended agent card.' }),
});

export const ScenarioFile = z
  .strictObject({
    $schema: z.string().optional(),
    description: z.string().min(1),
    skill: z
      .union([Skill, z.literal(false)])
      .optional()
      .meta({
        description: 'How the scenario appears on the agent card; false keeps it off the card.',
      }),
    priority: z.number().int().optional().meta({ description: 'Higher is tried first; default 0.' }),
    match: z
      .array(Condition)
      .optional()
      .meta({ description: 'Rules tried in order; any one matching selects the scenario.' }),
    fallback: z.boolean().optional().meta({ description: 'Plays when no scenario matches.' }),
    vars: z
      .record(z.string().regex(/^[A-Za-z_]\w*$/, { error: 'a var name is letters, digits and "_"' }), Json)
      .optional()
      .meta({
        description:
          'Values rendered once at the start of each turn, in order, and read as {{vars.name}}: draw a value once, use it in several places.',
      }),
    cancel: z
      .strictObject({
        allowed: z.boolean().optional().meta({ description: 'Default: true.' }),
        after: Delay.optional().meta({
          description: 'How long a cancel takes to take effect; the task keeps working meanwhile.',
        }),
        message: MessageContent.optional(),
      })
      .optional(),
    chaos: z.string().optional().meta({
      description:
        'The chaos its tasks meet on the wire: a profile name (`flaky-mobile`) or key=value pairs (`drop-after-events=3, drop-mode=reset`), as in the X-Sim-Chaos header.',
    }),
    steps: z.array(Step).min(1).optional(),
    reply: z
      .strictObject({
        message: MessageContent.optional(),
        variants: z
          .array(z.strictObject({ mediaType, message: MessageContent }))
          .min(1)
          .optional()
          .meta({
            description: "The same message in several media types, chosen as an artifact's variants are.",
          }),
        after,
      })
      .refine(oneOf('message', 'variants'), { error: 'a reply needs either "message" or "variants"' })
      .optional()
      .meta({ description: 'Answer with a direct Message instead of a Task.' }),
    error: ErrorAnswer.optional(),
  })
  .refine(oneOf('steps', 'reply', 'error'), {
    error: 'a scenario needs exactly one of "steps", "reply" or "error"',
  })
  .meta({
    title: 'a2a-sim scenario',
    description: 'A scripted A2A agent behaviour. The file name is the scenario id.',
  });

export type RawScenario = z.infer<typeof ScenarioFile>;
export type RawCondition = z.infer<typeof Condition>;
export type RawPart = z.infer<typeof Part>;
export type RawMessageContent = z.infer<typeof MessageContent>;

/** The JSON Schema of scenario files, for editors (`a2a-sim schema`, `scenarios/scenario.schema.json`). */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ScenarioFile, { unrepresentable: 'any' }),
    $id: 'https://a2a-sim.dev/scenario.schema.json',
  };
}
