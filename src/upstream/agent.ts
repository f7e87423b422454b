/**
 * Connects to a real A2A agent: reads its card, picks the binding to speak (the interfaces the card
 * declares decide; a client of the simulator may use another), and offers the runtime's
 * UpstreamAgent over it. Behind a workspace gateway there is no card: the gateway's JSON-RPC is
 * spoken directly, with the agent named by its code.
 */
import { randomUUID } from 'node:crypto';
import type { UpstreamBindingChoice } from './choices.js';
import { isRecord, arrayOf } from '../lib/objects.js';
import type { Clock } from '../lib/clock.js';
import { isoTime } from '../lib/iso-time.js';
import type { Task, SendRequest } from '../domain/types.js';
import type { UpstreamAgent, UpstreamCall, UpstreamItem } from '../runtime/api.js';
import { ABSENT_TIMESTAMP } from './agent-objects.js';
import { checkHops } from './hops.js';
import { requestJson, type HttpOptions } from './http.js';
import { CREDENTIAL_ORIGINS } from './limits.js';
import {
  gatewayTransport,
  jsonRpcTransport,
  jsonRpcV03Transport,
  restTransport,
  type Transport,
  type UpstreamBinding,
} from './transport.js';

/** What `--proxy-binding` may ask for; `auto` takes HTTP+JSON, then JSON-RPC 1.0, then 0.3. */

export interface UpstreamOptions {
  /** The agent's base URL, or its card's URL. */
  url?: string;
  /** A workspace gateway's endpoint (`…/agents/a2a`), with the code of the agent behind it. */
  gateway?: { url: string; agentCode: string };
  binding: UpstreamBindingChoice;
  timeoutMs: number;
  /** Sent with every call, e.g. the agent's own credentials. */
  headers: Record<string, string>;
  clock: Clock;
  /**
   * Origins besides the proxy URL's that may receive credentials when the card places an
   * interface there. Default {@link CREDENTIAL_ORIGINS}: none.
   */
  credentialOrigins?: readonly string[];
}

export interface ConnectedUpstream extends UpstreamAgent {
  /** The agent's card as it served it; none behind a gateway. */
  readonly card: Record<string, unknown> | undefined;
  readonly binding: UpstreamBinding;
}

export const CARD_PATH = '/.well-known/agent-card.json';

/**
 * @note Each connection names itself in the hop header with a random id, not a seeded one: two
 * simulators started with the same seed must still tell each other apart.
 */
export async function connectUpstream(options: UpstreamOptions): Promise<ConnectedUpstream> {
  const http: HttpOptions = {
    clock: options.clock,
    timeoutMs: options.timeoutMs,
    headers: options.headers,
    hop: `a2a-sim-${randomUUID().slice(0, 8)}`,
    credentials: true,
  };
  if (options.gateway) {
    const { url, agentCode } = options.gateway;
    return new HttpUpstream(gatewayTransport(url, agentCode, http), undefined, true, http);
  }
  const target = options.url!;
  const cardUrl = /\.json(\?|$)/.test(target) ? target : `${target.replace(/\/+$/, '')}${CARD_PATH}`;
  const answer = await requestJson('GET', cardUrl, undefined, {}, http).catch((error: Error) => {
    throw new Error(`Failed to read the agent card at ${cardUrl}: ${error.message}`);
  });
  if (answer.status !== 200 || !isRecord(answer.body)) {
    throw new Error(`Failed to read the agent card at ${cardUrl}: HTTP ${answer.status}`);
  }
  const card = answer.body;
  const offered = interfacesOf(card, cardUrl);
  const wanted = options.binding === 'auto' ? ['rest', 'jsonrpc', 'jsonrpc-0.3'] : [options.binding];
  const chosen = wanted.map((b) => offered.find((i) => i.binding === b)).find((i) => i !== undefined);
  if (!chosen) {
    const list =
      offered.map((i) => `${i.binding} at ${i.url}`).join(', ') || 'no binding the simulator speaks';
    throw new Error(
      `The agent at ${cardUrl} offers ${list}; ${options.binding === 'auto' ? 'none of HTTP+JSON, JSON-RPC 1.0, JSON-RPC 0.3' : `not ${options.binding}`}.`,
    );
  }
  // Credentials go where the proxy was pointed: the card names the interface, not who may be trusted.
  const trusted = [new URL(cardUrl).origin, ...(options.credentialOrigins ?? CREDENTIAL_ORIGINS)];
  const calls: HttpOptions = trusted.includes(new URL(chosen.url).origin)
    ? http
    : { ...http, headers: {}, credentials: false };
  const transport =
    chosen.binding === 'rest'
      ? restTransport(chosen.url, calls)
      : chosen.binding === 'jsonrpc'
        ? jsonRpcTransport(chosen.url, calls)
        : jsonRpcV03Transport(chosen.url, calls);
  const capabilities = isRecord(card['capabilities']) ? card['capabilities'] : {};
  return new HttpUpstream(transport, card, capabilities['streaming'] === true, http);
}

interface Offered {
  binding: Exclude<UpstreamBinding, 'gateway'>;
  url: string;
}

/** The interfaces a v1.0 card (`supportedInterfaces`) or a v0.3 card (`url`, `additionalInterfaces`) declares. */
export function interfacesOf(card: Record<string, unknown>, cardUrl: string): Offered[] {
  const offered: Offered[] = [];
  const add = (binding: Offered['binding'], url: unknown) => {
    if (typeof url !== 'string') return;
    try {
      const parsed = new URL(url, cardUrl);
      // fetch reads data: and blob: URLs too; an agent is reached over HTTP only.
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return;
      offered.push({ binding, url: parsed.href.replace(/\/+$/, '') });
    } catch {
      // An interface whose URL cannot be read is not offered.
    }
  };
  for (const entry of arrayOf(card['supportedInterfaces'])) {
    if (!isRecord(entry)) continue;
    const legacy = String(entry['protocolVersion'] ?? '').startsWith('0.');
    if (entry['protocolBinding'] === 'HTTP+JSON' && !legacy) add('rest', entry['url']);
    if (entry['protocolBinding'] === 'JSONRPC') add(legacy ? 'jsonrpc-0.3' : 'jsonrpc', entry['url']);
  }
  if (typeof card['url'] === 'string' && (card['preferredTransport'] ?? 'JSONRPC') === 'JSONRPC') {
    add('jsonrpc-0.3', card['url']);
  }
  for (const entry of arrayOf(card['additionalInterfaces'])) {
    if (isRecord(entry) && entry['transport'] === 'JSONRPC') add('jsonrpc-0.3', entry['url']);
  }
  return offered;
}

class HttpUpstream implements ConnectedUpstream {
  readonly binding: UpstreamBinding;
  readonly url: string;

  private readonly clock: Clock;

  constructor(
    private readonly transport: Transport,
    readonly card: Record<string, unknown> | undefined,
    readonly streaming: boolean,
    private readonly http: HttpOptions,
  ) {
    this.binding = transport.binding;
    this.url = transport.url;
    this.clock = http.clock;
  }

  checkCall(call: UpstreamCall): void {
    checkHops(call.headers, this.http.hop, this.url);
  }

  async *send(request: SendRequest, call: UpstreamCall): AsyncGenerator<UpstreamItem> {
    const { dialect } = this.transport;
    if (!this.streaming) {
      yield this.stamped(
        dialect.sendResult(await this.transport.send(dialect.sendParams(request, true), call)),
      );
      return;
    }
    const frames = await this.transport.stream(dialect.sendParams(request, false), call);
    for await (const frame of frames) yield this.stamped(dialect.streamItem(frame));
  }

  async *subscribe(taskId: string, call: UpstreamCall): AsyncGenerator<UpstreamItem> {
    if (!this.streaming) {
      yield { kind: 'task', task: await this.getTask(taskId, call) };
      return;
    }
    const frames = await this.transport.subscribe(taskId, call);
    for await (const frame of frames) yield this.stamped(this.transport.dialect.streamItem(frame));
  }

  async getTask(taskId: string, call: UpstreamCall): Promise<Task> {
    return this.stampedTask(this.transport.dialect.task(await this.transport.get(taskId, call)));
  }

  async cancelTask(taskId: string, call: UpstreamCall): Promise<Task> {
    return this.stampedTask(this.transport.dialect.task(await this.transport.cancel(taskId, call)));
  }

  /** A status the agent sent without a time gets the time it arrived. */
  private stamped(item: UpstreamItem): UpstreamItem {
    if (item.kind === 'task') return { kind: 'task', task: this.stampedTask(item.task) };
    if (item.kind !== 'status' || item.status.timestamp !== ABSENT_TIMESTAMP) return item;
    return { ...item, status: { ...item.status, timestamp: this.now() } };
  }

  private stampedTask(task: Task): Task {
    if (task.status.timestamp !== ABSENT_TIMESTAMP) return task;
    return { ...task, status: { ...task.status, timestamp: this.now() } };
  }

  private now(): string {
    return isoTime(this.clock.now());
  }
}
