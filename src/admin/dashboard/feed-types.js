/**
 * The live feed's event types, and which task an event is about: the one definition the server
 * (`src/admin/feed.ts`) and the dashboard in the browser both import, so they cannot drift apart.
 *
 * @note Plain JavaScript with no imports, because the browser loads it as it is (no build step);
 * its types are in feed-types.d.ts beside it.
 */

/** Every event type of the feed (`noun:verb`), for the `types` filter. */
export const FEED_TYPES = Object.freeze([
  'task:created',
  'task:event',
  'stream:opened',
  'stream:closed',
  'chaos:fault',
  'push:attempt',
  'request:received',
  'verdict:changed',
]);

/**
 * The task an event names, if any. The same on the server's events and the feed's messages: a
 * message is the event's own fields, plus a `payload` for a task event.
 *
 * @example taskIdOf({ type: 'chaos:fault', fault: { taskId: 't-1', … } }) // 't-1'
 */
export function taskIdOf(event) {
  switch (event.type) {
    case 'chaos:fault':
      return event.fault.taskId;
    case 'push:attempt':
      return event.delivery.taskId;
    case 'request:received':
      return event.request.taskId;
    default:
      return event.taskId;
  }
}
