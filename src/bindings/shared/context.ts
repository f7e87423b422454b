/** What every binding is built from: the service, the stream keep-alive, the cards, and limits. */
import type { SimService } from '../../runtime/service.js';
import type { AgentCards } from '../agent-card.js';
import type { KeepAliveHub } from './sse.js';

export interface BindingContext {
  service: SimService;
  keepAlive: KeepAliveHub;
  cards: AgentCards;
  maxBodyBytes: number;
  /** Apply the A2A-Version rules to the letter: no header means 0.3. */
  strictVersion: boolean;
  /** Reports an unexpected error (a simulator bug) to the log. */
  report(error: unknown): void;
}

/** Tasks are scoped by tenant; no tenant is the default scope. */
export function tenantScope(tenant: string | undefined): string {
  return tenant ? `tenant:${tenant}` : '';
}
