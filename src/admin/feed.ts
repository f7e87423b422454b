/**
 * The live feed: `GET /_sim/feed` upgraded to a WebSocket. A watcher first gets the bus history,
 * then every event as it happens, each as one JSON text message `{n, at, type, ...}`, narrowed by
 * the query (`taskId`, `contextId`, `workspace`, `agent`, `types`). Same access rule as the admin
 * API. A watcher that does not keep up is dropped (1013), never buffered without bound.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { toRestStatus } from '../bindings/rest-v1/errors.js';
import { answerOnSocket } from '../bindings/rest-v1/socket-answer.js';
import { requestTarget } from '../bindings/shared/http.js';
import { toWireStreamResponse } from '../bindings/v1/codec.js';
import { placeOf } from '../domain/scope.js';
import { A2AError, invalidParams } from '../domain/errors.js';
import { deadline } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { TaskStore } from '../store/task-store.js';
import { checkAdminAccess, checkFeedOrigin } from './access.js';
import type { SimEvent } from './events.js';
import type { ControlPlane } from './control-plane.js';
// Shared with the dashboard, which loads it in the browser, so it stays a file under
// src/admin/dashboard: from src/admin/ and dist/admin/ alike, this path reaches it (as DASHBOARD_DIR does).
import { FEED_TYPES as EVERY_FEED_TYPE, taskIdOf } from '../../src/admin/dashboard/feed-types.js';

const FEED_PATH = '/_sim/feed';

/** Every event type, for the `types` filter. */
export const FEED_TYPES: readonly SimEvent['type'][] = EVERY_FEED_TYPE;

/** Close code for a watcher that reads too slowly: "try again later" (RFC 6455 §7.4.1, IANA registry). */
const TOO_SLOW = 1013;
/** How long a watcher closed as too slow has to answer the close before its socket goes. */
const CLOSE_GRACE_MS = 2_000;

/** What the feed reads: the bus, the store (to tell what an event is about), the access token. */
type FeedSource = Pick<ControlPlane, 'events' | 'store' | 'adminToken'>;

interface FeedOptions {
  logger?: Logger;
  /** Bytes that may wait to be sent to one watcher before it is dropped. Default 1 MiB. */
  maxBufferedBytes?: number;
}

interface Feed {
  /** How many watch, and what waits to be sent to them (bounded per watcher by `maxBufferedBytes`). */
  memory(): { watchers: number; bufferedBytes: number };
  /** Disconnects every watcher and stops accepting new ones. */
  close(): void;
}

/** What an event is about, for the filters: named directly, or through its task. */
interface Subject {
  taskId?: string;
  contextId?: string;
  agent?: string;
  workspace?: string;
}

interface FeedFilter extends Subject {
  types?: ReadonlySet<string>;
}

/**
 * Serves the feed on `server`'s upgrade requests; any other upgrade is refused.
 *
 * @example
 * const feed = attachFeed(server, plane, { logger });
 * // new WebSocket('ws://127.0.0.1:41241/_sim/feed?types=task:event&taskId=…')
 * feed.close();
 */
export function attachFeed(server: Server, plane: FeedSource, options: FeedOptions = {}): Feed {
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
  // ws is loaded by the first watcher, not at startup: most runs never open the feed.
  let loading: Promise<WebSocketServer> | undefined;
  let wss: WebSocketServer | undefined;
  let closed = false;
  /** Upgrades accepted and not yet watching (ws loads, the handshake completes). */
  let joining = 0;
  const webSockets = () =>
    (loading ??= import('ws').then(
      // Watchers send nothing worth reading: a small frame limit keeps a hostile one cheap.
      ({ WebSocketServer }) => (wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 })),
    ));
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const { pathname, query } = requestTarget(req.url);
    if (pathname !== FEED_PATH) {
      refuse(
        socket,
        new A2AError('MethodNotFoundError', `Not found: only ${FEED_PATH} accepts a WebSocket upgrade.`),
      );
      return;
    }
    let filter: FeedFilter;
    try {
      checkAdminAccess(req, plane.adminToken);
      checkFeedOrigin(req, plane.adminToken);
      filter = filterOf(query);
      if (joining + (wss?.clients.size ?? 0) >= MAX_WATCHERS) {
        throw new A2AError(
          'ResourceExhaustedError',
          `The feed has ${MAX_WATCHERS} watchers, the most it serves at once: close one (a dashboard tab, a script) and try again.`,
          { reason: 'TOO_MANY_WATCHERS', metadata: { watchers: MAX_WATCHERS } },
        );
      }
    } catch (error) {
      // An upgrade listener must not throw: that would take the whole server down.
      if (!(error instanceof A2AError)) options.logger?.error('feed: failed to accept a watcher', error);
      refuse(socket, error instanceof A2AError ? error : new A2AError('InternalError'));
      return;
    }
    // Counted until it watches, or its socket closes first (a handshake ws refuses never calls back).
    joining++;
    let counted = true;
    const joined = () => {
      if (counted) joining--;
      counted = false;
    };
    socket.once('close', joined);
    webSockets().then(
      (wss) => {
        // The feed may have closed, or the client hung up, while ws was loading.
        if (closed || socket.destroyed) socket.destroy();
        else
          wss.handleUpgrade(req, socket, head, (ws) => {
            joined();
            watch(ws, filter);
          });
      },
      (error: unknown) => {
        options.logger?.error('feed: failed to accept a watcher', error);
        refuse(socket, new A2AError('InternalError'));
      },
    );
  };

  const watch = (ws: WebSocket, filter: FeedFilter) => {
    const matches = (event: SimEvent) =>
      (filter.types === undefined || filter.types.has(event.type)) && about(event, filter, plane.store);
    // The history goes out under the same slow-reader bound as live events: a batch while the
    // socket's buffer is below it, the next once that batch is flushed. Live events that come
    // meanwhile wait behind it, in order, and count against the bound too.
    // The history is read from the bus as it goes out, by number, so a watcher that does not read
    // holds no event the bus has let go (an event that left the ring meanwhile is skipped).
    let [next, last] = plane.events.span;
    const nextOfHistory = (): SimEvent | undefined => {
      while (next <= last) {
        const event = plane.events.at(next++);
        if (event && matches(event)) return event;
      }
      return undefined;
    };
    let waiting: string[] | undefined = [];
    let waitingBytes = 0;
    const tooSlow = (bytes: number) => {
      unsubscribe();
      options.logger?.warn(
        `feed: dropped a watcher that reads too slowly (${bytes} bytes waiting to be sent)`,
      );
      ws.close(TOO_SLOW, `too slow: more than ${maxBuffered} bytes waiting to be sent`);
      // A watcher that does not read does not answer the close either: let its socket go soon
      // rather than after ws's 30 s closing handshake.
      deadline(CLOSE_GRACE_MS, () => ws.terminate());
    };
    const sendHistory = () => {
      if (ws.readyState !== ws.OPEN || !waiting) return;
      let event = nextOfHistory();
      while (event && ws.bufferedAmount <= maxBuffered) {
        ws.send(encode(event));
        event = nextOfHistory();
      }
      if (event) {
        ws.send(encode(event), () => sendHistory());
        return;
      }
      for (const text of waiting) ws.send(text);
      waiting = undefined;
    };
    // Subscribed in the same tick as the history was read: no event can fall in between.
    const unsubscribe = plane.events.subscribe((event) => {
      // The bus calls this from inside the task runner: nothing here may throw into it.
      try {
        if (!matches(event) || ws.readyState !== ws.OPEN) return;
        const text = encode(event);
        if (waiting) {
          waiting.push(text);
          waitingBytes += text.length;
          if (waitingBytes > maxBuffered) tooSlow(waitingBytes);
          return;
        }
        ws.send(text);
        if (ws.bufferedAmount > maxBuffered) tooSlow(ws.bufferedAmount);
      } catch (error) {
        unsubscribe();
        options.logger?.error('feed: failed to send an event; the watcher is disconnected', error);
        ws.terminate();
      }
    });
    sendHistory();
    ws.on('close', unsubscribe);
    ws.on('error', () => ws.terminate());
  };

  server.on('upgrade', onUpgrade);
  return {
    memory: () => {
      let bufferedBytes = 0;
      for (const ws of wss?.clients ?? []) bufferedBytes += ws.bufferedAmount;
      return { watchers: wss?.clients.size ?? 0, bufferedBytes };
    },
    close: () => {
      closed = true;
      server.off('upgrade', onUpgrade);
      if (!wss) return;
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

/** A feed message longer than this is sent as a summary that says how long it was. */
const MAX_MESSAGE_CHARS = 64 * 1024;
/**
 * Watchers at once: each may have 1 MiB waiting to be sent to it, and every event is encoded once
 * for each, so the count bounds what the feed holds and costs (a dashboard tab is one watcher).
 */
export const MAX_WATCHERS = 64;

/**
 * One message: `{n, at, type, ...}`; a task event also carries its A2A v1.0 StreamResponse. A
 * message past {@link MAX_MESSAGE_CHARS} keeps its `n`, `at`, `type` and ids, and says it was cut.
 */
function encode(event: SimEvent): string {
  const payload = event.type === 'task:event' && toWireStreamResponse({ kind: 'event', event: event.event });
  const { n, at, ...body } = event;
  const text = JSON.stringify({ n, at, ...body, ...(payload && { payload }) });
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const ids = Object.fromEntries(
    Object.entries(body).filter(([, value]) => typeof value === 'string' && value.length <= 256),
  );
  return JSON.stringify({ n, at, ...ids, truncated: { chars: text.length, limit: MAX_MESSAGE_CHARS } });
}

function filterOf(params: URLSearchParams): FeedFilter {
  const filter: FeedFilter = {};
  for (const key of ['taskId', 'contextId', 'workspace', 'agent'] as const) {
    const value = params.get(key);
    if (value !== null && value !== '') filter[key] = value;
  }
  const types = params.get('types');
  if (types !== null && types.trim() !== '') {
    const list = types.split(',').map((t) => t.trim());
    const unknown = list.filter((t) => !(FEED_TYPES as readonly string[]).includes(t));
    if (unknown.length) {
      throw invalidParams([
        {
          field: 'types',
          description: `unknown event type(s) ${unknown.map((t) => `"${t}"`).join(', ')}; known: ${FEED_TYPES.join(', ')}`,
        },
      ]);
    }
    filter.types = new Set(list);
  }
  return filter;
}

/** Whether `event` names every value the filter asks for (an event about no task fails a task filter). */
function about(event: SimEvent, filter: FeedFilter, store: TaskStore): boolean {
  if (
    filter.taskId === undefined &&
    filter.contextId === undefined &&
    filter.workspace === undefined &&
    filter.agent === undefined
  ) {
    return true;
  }
  const subject = subjectOf(event, store);
  return (
    (filter.taskId === undefined || subject.taskId === filter.taskId) &&
    (filter.contextId === undefined || subject.contextId === filter.contextId) &&
    (filter.workspace === undefined || subject.workspace === filter.workspace) &&
    (filter.agent === undefined || subject.agent === filter.agent)
  );
}

function subjectOf(event: SimEvent, store: TaskStore): Subject {
  const subject: Subject = {};
  switch (event.type) {
    case 'task:created':
    case 'task:event':
      return {
        taskId: event.taskId,
        contextId: event.contextId,
        ...(event.agent !== undefined && { agent: event.agent }),
        ...(event.workspace !== undefined && { workspace: event.workspace }),
      };
    case 'chaos:fault':
      if (event.fault.request?.scope !== undefined)
        Object.assign(subject, placeOf(event.fault.request.scope));
      break;
    case 'request:received': {
      const { agent, workspace } = event.request;
      Object.assign(subject, {
        ...(agent !== undefined && { agent }),
        ...(workspace !== undefined && { workspace }),
      });
      break;
    }
  }
  const taskId = taskIdOf(event);
  if (taskId !== undefined) subject.taskId = taskId;
  // The task tells the rest, while it is still stored.
  const record = subject.taskId === undefined ? undefined : store.find(subject.taskId);
  if (record) {
    const place = placeOf(record.scope);
    subject.contextId ??= record.contextId;
    if (place.agent !== undefined) subject.agent ??= place.agent;
    if (place.workspace !== undefined) subject.workspace ??= place.workspace;
  }
  return subject;
}

/** Answers an upgrade request with the admin API's error body and hangs up. */
function refuse(socket: Duplex, error: A2AError): void {
  const challenge = ['WWW-Authenticate: Bearer realm="a2a-sim control plane"'];
  answerOnSocket(socket, error, toRestStatus(error).httpStatus === 401 ? challenge : []);
}
