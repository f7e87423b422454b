/**
 * One page of a task listing, most recently updated first, and its cursor: where the previous page
 * stopped. A page is chosen in one pass over the tasks, keeping the best `pageSize` of those past
 * the cursor in a heap, not by sorting them all: a listing of 10,000 tasks sorted them and parsed
 * every status timestamp again, 3.3 ms of the event loop a call.
 */
import { excerpt } from '../lib/excerpt.js';
import { A2AError } from '../domain/errors.js';
import type { Scope } from '../domain/scope.js';
import type { ListTasksQuery, TaskStatus } from '../domain/types.js';
import { Heap } from '../lib/heap.js';

/** What a listing reads of a task. */
export interface Listed {
  readonly scope: Scope;
  readonly contextId: string;
  readonly status: TaskStatus;
  /** Store-wide counter of status changes: breaks ties between equal status times. */
  readonly statusOrder: number;
  /** The status timestamp in epoch ms (0 if it does not parse). */
  readonly statusTimeMs: number;
}

export interface Page<T> {
  records: T[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** Listing order and page cursor: (status time in ms, status order), both descending. */
type PageKey = [number, number];

/** The page of `records` in `scope` that `query` asks for. */
export function pageOf<T extends Listed>(records: Iterable<T>, scope: Scope, query: ListTasksQuery): Page<T> {
  const after = query.pageToken ? decodePageToken(query.pageToken) : undefined;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  // The best `pageSize` so far, the one listed last on top: a better one takes its place.
  const best = new Heap<Entry<T>>((a, b) => listedBefore(b[1], b[2], a[1], a[2]));
  let totalSize = 0;
  let pastCursor = 0;
  for (const record of records) {
    if (record.scope.key !== scope.key) continue;
    if (query.contextId !== undefined && record.contextId !== query.contextId) continue;
    if (query.status !== undefined && record.status.state !== query.status) continue;
    const time = record.statusTimeMs;
    if (query.statusTimestampAfter !== undefined && time < query.statusTimestampAfter) continue;
    totalSize++;
    const order = record.statusOrder;
    if (after && !listedBefore(after[0], after[1], time, order)) continue;
    pastCursor++;
    const worst = best.size === pageSize ? best.peek() : undefined;
    // Most tasks rank below a full page's last: they are turned away before an entry is made.
    if (worst && !listedBefore(time, order, worst[1], worst[2])) continue;
    if (worst) best.replaceTop([record, time, order]);
    else best.push([record, time, order]);
  }
  const page = best.drain().reverse();
  const last = page.at(-1);
  return {
    records: page.map(([record]) => record),
    nextPageToken: last && pastCursor > pageSize ? encodePageToken([last[1], last[2]]) : '',
    pageSize,
    totalSize,
  };
}

type Entry<T> = [record: T, time: number, order: number];

/**
 * Whether what was updated at `time`, `order` is listed before what was at `thanTime`, `thanOrder`:
 * later, or at the same time and changed later. A page after a cursor lists what the cursor is before.
 */
function listedBefore(time: number, order: number, thanTime: number, thanOrder: number): boolean {
  return time > thanTime || (time === thanTime && order > thanOrder);
}

/** Opaque to clients: where the previous page stopped, as (status time, status order). */
function encodePageToken([time, order]: PageKey): string {
  return Buffer.from(JSON.stringify([time, order])).toString('base64url');
}

export function decodePageToken(token: string): PageKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every(Number.isFinite)) return value as PageKey;
  } catch {
    // fall through to the error below
  }
  throw new A2AError(
    'InvalidParamsError',
    `Invalid parameters: pageToken "${excerpt(token, QUOTED_TOKEN_CHARS)}" was not issued by this server.`,
    {
      fieldViolations: [
        { field: 'pageToken', description: 'use the nextPageToken of a previous ListTasks response' },
      ],
    },
  );
}

/** How much of a token the error quotes: a client's megabyte of token is not sent back whole. */
const QUOTED_TOKEN_CHARS = 64;
