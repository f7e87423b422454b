/**
 * What the rules read of a client's call: the part of its exchange record (calls/exchange.ts) that
 * verdicts rest on. Every binding's operations are read as the same operation names, so a rule
 * holds alike for REST, JSON-RPC 1.0 and 0.3 and the gateway.
 */
import type { Delivered, DeliveredFacts, Exchange } from '../calls/exchange.js';

export { factsOf } from '../calls/exchange.js';
export type { Delivered, DeliveredFacts };

export type Observation = Readonly<
  Pick<
    Exchange,
    | 'atMs'
    | 'read'
    | 'kind'
    | 'taskId'
    | 'continues'
    | 'cursor'
    | 'conditional'
    | 'forgedCard'
    | 'state'
    | 'error'
    | 'delivered'
    | 'deliveredClipped'
    | 'ended'
    | 'endedAtMs'
  > &
    /** What the call's record keeps of its path: counted against the verdicts' budget. */
    Partial<Pick<Exchange, 'path'>>
>;
