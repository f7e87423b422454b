/**
 * The agent definition format (`*.agent.yaml` / `*.agent.json`), as one zod schema: the loader
 * validates with it, and `a2a-sim schema --agent` writes `scenarios/agent.schema.json` from it.
 */
import * as z from 'zod';
import { Json, Skill } from '../scenario/schema.js';

const NAME = /^[A-Za-z0-9][\w.-]*$/;
const NAME_HINT = 'use letters, digits, "-", "_" and "."';
// RFC 9110 token characters: anything else cannot be a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SCENARIOS_HINT = 'expected a list of scenario ids, or "*" for every loaded scenario';

const AgentSkill = Skill.extend({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().min(1),
});

export const AgentSecurity = z
  .strictObject({
    apiKey: z
      .strictObject({
        header: z.string().regex(HEADER_NAME, { error: 'expected an HTTP header name' }),
      })
      .optional()
      .meta({ description: 'Callers send an API key in this header, e.g. { header: X-API-Key }.' }),
    http: z
      .strictObject({
        scheme: z.literal('bearer', { error: 'only the "bearer" scheme is supported' }),
        bearerFormat: z.string().optional().meta({ description: 'A hint such as "JWT".' }),
      })
      .optional()
      .meta({ description: 'Callers send "Authorization: Bearer <token>".' }),
  })
  .refine((s) => s.apiKey || s.http, { error: 'declare "apiKey", "http" or both' })
  .meta({
    description:
      'How callers authenticate, declared on the agent card; requests without a credential get 401. With both, either one is enough.',
  });

export const AgentExtension = z
  .strictObject({
    uri: z.string().min(1).meta({ description: 'The extension, e.g. "https://example.com/ext/geo/v1".' }),
    description: z.string().optional(),
    required: z.boolean().optional().meta({
      description:
        'Clients must activate it: every call that does not name its URI in the A2A-Extensions header (v0.3: X-A2A-Extensions) fails with ExtensionSupportRequiredError. Default: false.',
    }),
    params: z
      .record(z.string(), Json)
      .optional()
      .meta({ description: 'Its configuration, as the card shows it.' }),
  })
  .meta({
    description: 'An A2A extension the agent supports, declared on its card (capabilities.extensions).',
  });

const MODES_HINT = 'expected a list of media types such as ["text/plain"]';
const modes = (description: string) =>
  z
    .array(z.string({ error: MODES_HINT }).min(1, { error: MODES_HINT }), { error: MODES_HINT })
    .min(1, { error: MODES_HINT })
    .optional()
    .meta({ description });

export const AgentFile = z
  .strictObject({
    $schema: z.string().optional(),
    code: z
      .string()
      .regex(NAME, { error: `not a valid agent code: ${NAME_HINT}` })
      .optional()
      .meta({ description: 'The gateway selector `agent_code`; unique. Default: the agent id (file name).' }),
    name: z.string().min(1),
    description: z.string().min(1),
    version: z.string().min(1).optional().meta({ description: "Default: the simulator's version." }),
    scenarios: z
      .union([
        z.literal('*', { error: SCENARIOS_HINT }),
        z.array(z.string().min(1), { error: SCENARIOS_HINT }).min(1),
      ])
      .meta({ description: 'The scenarios this agent plays, by id, or "*" for every loaded scenario.' }),
    skills: z
      .array(AgentSkill)
      .optional()
      .meta({ description: "The card's skills. Default: the skills of the agent's scenarios." }),
    security: AgentSecurity.optional(),
    capabilities: z
      .strictObject({
        extensions: z
          .array(AgentExtension)
          .optional()
          .refine((list) => new Set(list?.map((e) => e.uri)).size === (list?.length ?? 0), {
            error: 'each extension uri may appear once',
          }),
      })
      .optional()
      .meta({ description: "What the card's capabilities declare beyond streaming and push notifications." }),
    defaultInputModes: modes(
      "Media types the agent takes in message parts; a part of another type is refused with ContentTypeNotSupportedError. Default: the simulator's.",
    ),
    defaultOutputModes: modes(
      "Media types the agent answers in, as the card says. Default: the simulator's.",
    ),
    workspaces: z
      .array(z.string().min(1))
      .optional()
      .meta({ description: 'The gateway workspaces that expose this agent; "*" is any. Default: ["*"].' }),
  })
  .meta({
    title: 'a2a-sim agent',
    description:
      'An agent served at /agents/{id}/ with its own card and tasks. The file name without ".agent.yaml" is its id.',
  });

export type RawAgent = z.infer<typeof AgentFile>;
export type AgentSecurity = z.infer<typeof AgentSecurity>;
export type AgentExtension = z.infer<typeof AgentExtension>;

/** The JSON Schema of agent files, for editors (`a2a-sim schema --agent`, `scenarios/agent.schema.json`). */
export function agentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(AgentFile, { unrepresentable: 'any' }),
    $id: 'https://a2a-sim.dev/agent.schema.json',
  };
}
