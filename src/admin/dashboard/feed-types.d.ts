// The types of feed-types.js, for the server's TypeScript. test/admin/feed-types.test.ts checks
// that the list holds every SimEvent type, which a declaration alone cannot.
import type { SimEvent } from '../events.js';

export declare const FEED_TYPES: readonly SimEvent['type'][];

export declare function taskIdOf(event: SimEvent): string | undefined;
