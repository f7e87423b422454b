/**
 * The body of a webhook delivery, in the shapes of the binding that made the config (§5): a v1.0
 * StreamResponse (`{"statusUpdate": …}`), or the bare v0.3 object (`{"kind": "status-update", …}`).
 */
import { isPaused } from '../domain/lifecycle.js';
import type { LoggedEvent, PushDialect } from '../domain/types.js';
import * as v03 from './jsonrpc-v03/codec.js';
import * as v1 from './v1/codec.js';

export function pushBody(dialect: PushDialect, event: LoggedEvent): unknown {
  if (dialect === '1.0') return v1.toWireStreamResponse({ kind: 'event', event });
  // v0.3's `final` marks the update after which no more come for this turn: terminal, or waiting
  // for the user (input-required and auth-required, where a stream closes by default too).
  const ends = event.event.kind === 'status' && isPaused(event.event.status.state);
  return v03.toWireStreamResponse({ kind: 'event', event, ...(ends && { last: true }) });
}
