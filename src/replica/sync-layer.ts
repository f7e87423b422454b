/**
 * A layer of every agent's call pipeline on a replica: each call first waits until this replica has
 * applied everything the shared log held when the call came, so a task made through one replica is
 * there when the next call reaches another; a change is answered once it is in the store. When the
 * store is away, the call is refused with UnavailableError in the binding's own shape.
 */
import type { OperationName } from '../calls/operations.js';
import type { Layer } from '../calls/pipeline.js';

/** The operations whose answer says something changed: answered once the change is shared. */
const CHANGES: ReadonlySet<OperationName> = new Set([
  'send',
  'cancel',
  'create-push-config',
  'delete-push-config',
]);

export function syncLayer(replica: { sync(): Promise<void>; flushed(): Promise<void> }): Layer {
  return async (call, next) => {
    await replica.sync();
    const answer = await next(call);
    if (CHANGES.has(call.operation.name)) await replica.flushed();
    return answer;
  };
}
