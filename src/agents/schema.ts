/**
 * The agent definition format (`*.agent.yaml` / `*.agent.json`), as one zod schema: the loader
 * validates with it, and `a2a-sim schema --agent` writes `scenarios/agent.schema.json` from it.
 */
import { z } from 'zod';
import { Skill } from '../scenario/schema.js';

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

/** The JSON Schema of agent files, for editors (`a2a-sim schema --agent`, `scenarios/agent.schema.json`). */
export function agentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(AgentFile, { unrepresentable: 'any' }),
    $id: 'https://a2a-sim.dev/agent.schema.json',
  };
}
