/** The cursor of a task listing: where the previous page stopped. */
import { A2AError } from '../domain/errors.js';

/** Listing order and page cursor: (status time in ms, status order), both descending. */
export type PageKey = [number, number];

/** Opaque to clients: where the previous page stopped, as (status time, status order). */
export function encodePageToken([time, order]: PageKey): string {
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
    `Invalid parameters: pageToken "${token}" was not issued by this server.`,
    {
      fieldViolations: [
        { field: 'pageToken', description: 'use the nextPageToken of a previous ListTasks response' },
      ],
    },
  );
}

export function isAfter([time, order]: PageKey, [afterTime, afterOrder]: PageKey): boolean {
  return time < afterTime || (time === afterTime && order < afterOrder);
}
