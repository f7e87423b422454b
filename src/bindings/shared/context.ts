/** What every binding is built from: the service, the stream keep-alive, the cards, and limits. */
import type { SimService } from '../../runtime/service.js';
import type { AgentCards } from '../agent-card.js';
import type { AccessPolicy } from './auth.js';
import type { KeepAliveHub } from './sse.js';

export interface BindingContext {
  service: SimService;
  keepAlive: KeepAliveHub;
  cards: AgentCards;
  maxBodyBytes: number;
  /** Apply the A2A-Version rules to the letter: no header means 0.3. */
  strictVersion: boolean;
  /** The scope a call's tasks live in: a task is visible only from the scope that created it. */
  scope(tenant?: string): string;
  /** Who may call the agent; absent, anyone may. Its card stays public either way. */
  access?: AccessPolicy;
  /** Reports an unexpected error (a simulator bug) to the log. */
  report(error: unknown): void;
}

/** The root agent's scope: by tenant; no tenant is the default scope. */
export function tenantScope(tenant?: string): string {
  return tenant ? `tenant:${tenant}` : '';
}

/** A defined agent's scope, e.g. `agent:explore|tenant:acme`: its tasks are its own, tenant by tenant. */
export function agentScope(agentId: string): (tenant?: string) => string {
  return (tenant) => [`agent:${agentId}`, tenantScope(tenant)].filter(Boolean).join('|');
}
