/**
 * What an agent's card says, and which card a request without `A2A-Version` gets: settings that
 * the options (config.ts), the CLI and the card binding (bindings/agent-card.ts) share.
 */
import type { AgentExtension, AgentSecurity } from './schema.js';

/** Which card a request that names no `A2A-Version` gets. */
export const CARD_FORMATS = Object.freeze(['hybrid', 'v1.0', 'v0.3'] as const);
export type CardFormat = (typeof CARD_FORMATS)[number];

export interface AgentCardOptions {
  name: string;
  description: string;
  version: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  /** Overrides the URL derived from the request, e.g. behind a proxy. */
  publicUrl?: string;
  /** Where the agent is mounted below the base URL, e.g. `/agents/explore`. */
  path?: string;
  security?: AgentSecurity;
  /** Whether GetExtendedAgentCard is offered (capabilities.extendedAgentCard). */
  extendedCard: boolean;
  /** Whether webhooks are offered (capabilities.pushNotifications). */
  pushNotifications: boolean;
  inputModes: readonly string[];
  outputModes: readonly string[];
  /** The card a request that names no `A2A-Version` gets. */
  format: CardFormat;
  /** capabilities.extensions, in both card versions. */
  extensions?: readonly AgentExtension[];
}
