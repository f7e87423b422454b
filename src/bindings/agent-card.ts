/**
 * The agent card (§8), built from the loaded scenarios' skills. URLs are absolute: from
 * `--public-url` when given, else from the request's Host, so the card is right behind any port.
 *
 * The card follows `A2A-Version`: `1.0` gets the pure v1.0 card, `0.3` the v0.3 card (with the
 * v1.0 `supportedInterfaces` embedded). A request that names no version gets the card of
 * `--card-format`: by default the hybrid card, as the official Python SDK serves it: the v1.0
 * card plus the v0.3 fields, so that v0.3 clients (which fetch without a header and need `url`
 * and `preferredTransport`) and v1.0 clients (which read `supportedInterfaces`) both find their
 * way. `v1.0` serves the pure v1.0 card (§14.3: the well-known URI returns a v1.0 AgentCard),
 * `v0.3` the v0.3 card. `Vary: A2A-Version`.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentCardOptions, CardFormat } from '../agents/card-options.js';
import type { AgentSecurity } from '../agents/schema.js';
import type { Clock } from '../lib/clock.js';
import type { SkillInfo } from '../scenario/model.js';
import type { CardSignatureFault } from '../domain/card-signature.js';
import type { JwsSigner } from '../lib/jws.js';
import { JWKS_PATH, signCard, tamperCard } from './card-signing.js';

/**
 * How long a client may use a fetched card before revalidating it (§8.6.1). Short: the skills on
 * the card follow the scenario files, which `--watch` and `POST /_sim/scenarios/reload` change.
 */
export const CARD_MAX_AGE_SECONDS = 60;

type Card = Record<string, unknown>;

export class AgentCards {
  /** The skills the card listed when last served, and since when (whole seconds, as HTTP dates go). */
  private skillsListed: string;
  private modifiedAtMs: number;

  constructor(
    private readonly options: AgentCardOptions,
    private readonly skills: () => readonly SkillInfo[],
    private readonly clock: Clock,
    /** Signs every card served (§8.4); absent, cards go unsigned. */
    readonly signer?: JwsSigner,
  ) {
    this.skillsListed = JSON.stringify(skills());
    this.modifiedAtMs = wholeSeconds(clock.now());
  }

  /** The port of the agent's gRPC services, once they listen, and the HTTP base URL beside them. */
  private grpc: { port: number; httpUrl: string } | undefined;

  /** The agent is served over gRPC too: its cards list the GRPC interfaces. */
  servesGrpc(port: number, httpUrl: string): void {
    this.grpc = { port, httpUrl };
  }

  /**
   * The GRPC interface's `host:port`: the host the client reached the card by (or the public URL's),
   * as for the HTTP interfaces, which a client can reach again; the address bound may be 0.0.0.0.
   */
  private grpcAddress(base: string): string | undefined {
    return this.grpc && `${new URL(base).hostname}:${this.grpc.port}`;
  }

  /** The base URL of a card asked for over gRPC, which has no Host header to build it from. */
  grpcBaseUrl(): string {
    const origin = this.options.publicUrl?.replace(/\/+$/, '') ?? this.grpc?.httpUrl ?? '';
    return `${origin}${this.options.path ?? ''}`;
  }

  get extendedCardEnabled(): boolean {
    return this.options.extendedCard;
  }

  /** The base URL clients should call, without a trailing slash. */
  baseUrl(req: IncomingMessage): string {
    return `${this.origin(req)}${this.options.path ?? ''}`;
  }

  private origin(req: IncomingMessage): string {
    if (this.options.publicUrl) return this.options.publicUrl.replace(/\/+$/, '');
    const forwarded = req.headers['x-forwarded-proto'];
    const proto = typeof forwarded === 'string' && /^https?$/.test(forwarded) ? forwarded : 'http';
    const host = req.headers.host;
    // The Host header is reflected into the card: accept only what a host can look like.
    const safeHost =
      host && /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
        ? host
        : `${req.socket.localAddress?.includes(':') ? `[${req.socket.localAddress}]` : req.socket.localAddress}:${req.socket.localPort}`;
    return `${proto}://${safeHost}`;
  }

  /** The A2A v1.0 card. The extended card also lists skills marked `extended`. */
  v1(base: string, extended = false): Card {
    const o = this.options;
    return {
      name: o.name,
      description: o.description,
      supportedInterfaces: this.interfaces(base),
      ...(o.provider && { provider: o.provider }),
      version: o.version,
      ...(o.documentationUrl && { documentationUrl: o.documentationUrl }),
      capabilities: {
        streaming: true,
        pushNotifications: o.pushNotifications,
        ...(o.extensions?.length && { extensions: o.extensions.map((e) => ({ ...e })) }),
        extendedAgentCard: o.extendedCard,
      },
      ...(o.security && securityV1(o.security)),
      defaultInputModes: [...o.inputModes],
      defaultOutputModes: [...o.outputModes],
      skills: this.wireSkills(extended),
    };
  }

  /** The A2A v0.3 card, with the v1.0 interfaces embedded for clients that understand both. */
  v03(base: string, extended = false): Card {
    const o = this.options;
    return {
      protocolVersion: '0.3.0',
      name: o.name,
      description: o.description,
      url: base,
      preferredTransport: 'JSONRPC',
      // v0.3 HTTP+JSON clients append `/v1/message:send`, ... to the url: the base serves both. The
      // gRPC port serves the v0.3 service beside the v1.0 one.
      additionalInterfaces: [
        { url: base, transport: 'JSONRPC' },
        { url: base, transport: 'HTTP+JSON' },
        ...(this.grpc ? [{ url: this.grpcAddress(base), transport: 'GRPC' }] : []),
      ],
      supportedInterfaces: this.interfaces(base),
      ...(o.provider && { provider: o.provider }),
      version: o.version,
      ...(o.documentationUrl && { documentationUrl: o.documentationUrl }),
      capabilities: {
        streaming: true,
        pushNotifications: o.pushNotifications,
        stateTransitionHistory: false,
        ...(o.extensions?.length && { extensions: o.extensions.map((e) => ({ ...e })) }),
      },
      defaultInputModes: [...o.inputModes],
      defaultOutputModes: [...o.outputModes],
      skills: this.wireSkills(extended),
      supportsAuthenticatedExtendedCard: o.extendedCard,
      ...(o.security && securityV03(o.security)),
    };
  }

  /**
   * The v0.3 card as ProtoJSON of the v0.3 proto's AgentCard, as v0.3 HTTP+JSON serves it
   * (`GET /v1/card`): the fields the proto has, the security in its shape (which v1.0 kept).
   */
  v03Proto(base: string, extended = false): Card {
    const card = this.v03(base, extended);
    const { stateTransitionHistory: _history, ...capabilities } = card['capabilities'] as Card;
    const security = this.options.security && securityV1(this.options.security);
    const { supportedInterfaces: _v1, securitySchemes: _schemes, security: _security, ...rest } = card;
    return {
      ...rest,
      capabilities,
      ...(security && {
        securitySchemes: security['securitySchemes'],
        security: security['securityRequirements'],
      }),
    };
  }

  /**
   * The v1.0 card with the v0.3 fields added where v1.0 has none (`url`, `preferredTransport`,
   * `protocolVersion`, ...). Where both versions have a field, each security scheme carries both
   * shapes (`apiKeySecurityScheme` beside `type: apiKey`): each client reads its own and ignores
   * the other's.
   */
  hybrid(base: string): Card {
    const v1 = this.v1(base);
    const v03 = this.v03(base);
    const card: Card = { ...v03, ...v1 };
    card['capabilities'] = { ...(v03['capabilities'] as Card), ...(v1['capabilities'] as Card) };
    if (v1['securitySchemes']) {
      const [v1Schemes, v03Schemes] = [v1['securitySchemes'] as Card, v03['securitySchemes'] as Card];
      card['securitySchemes'] = Object.fromEntries(
        Object.keys(v1Schemes).map((name) => [
          name,
          { ...(v03Schemes[name] as Card), ...(v1Schemes[name] as Card) },
        ]),
      );
    }
    return card;
  }

  /**
   * A card as it goes out: signed when a key is configured, then spoiled if chaos says so (§8.4).
   * @example cards.published(cards.v1(base, true), base)
   */
  published(card: Card, base: string, fault?: CardSignatureFault): Card {
    if (!this.signer) return card;
    const jku = `${base}${JWKS_PATH}`;
    const signed = signCard(card, this.signer, jku);
    return fault ? tamperCard(signed, fault, jku, this.signer.kid) : signed;
  }

  /**
   * Serves the public card with the caching headers of §8.6.1 (`Cache-Control: max-age`, `ETag`,
   * `Last-Modified`) and answers a conditional request whose copy is current with 304.
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    version: string | undefined,
    fault?: CardSignatureFault,
  ): void {
    const base = this.baseUrl(req);
    const format: CardFormat = version === '1.0' ? 'v1.0' : version === '0.3' ? 'v0.3' : this.options.format;
    const card = format === 'v1.0' ? this.v1(base) : format === 'v0.3' ? this.v03(base) : this.hybrid(base);
    const body = JSON.stringify(this.published(card, base, fault));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const modifiedAtMs = this.lastModified();
    const headers = {
      ETag: etag,
      'Last-Modified': new Date(modifiedAtMs).toUTCString(),
      'Cache-Control': `public, max-age=${CARD_MAX_AGE_SECONDS}`,
      Vary: 'A2A-Version',
    };
    if (isCurrent(req, etag, modifiedAtMs)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  }

  /** When the card's content last changed: at start, or when a reload changed the skills it lists. */
  private lastModified(): number {
    const listed = JSON.stringify(this.skills());
    if (listed !== this.skillsListed) {
      this.skillsListed = listed;
      this.modifiedAtMs = wholeSeconds(this.clock.now());
    }
    return this.modifiedAtMs;
  }

  /**
   * JSON-RPC first: it is the default binding of most clients. Both live at the same base URL; gRPC,
   * when it runs, on its own port. v1.0 interfaces only: the v0.3 ones are the v0.3 card's
   * `additionalInterfaces`, as for the HTTP bindings.
   */
  private interfaces(base: string): Card[] {
    return [
      { url: base, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: base, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ...(this.grpc
        ? [{ url: this.grpcAddress(base), protocolBinding: 'GRPC', protocolVersion: '1.0' }]
        : []),
    ];
  }

  private wireSkills(extended: boolean): Card[] {
    return this.skills()
      .filter((s) => extended || !s.extended)
      .map(({ extended: _extended, ...skill }) => ({ ...skill }));
  }
}

/**
 * RFC 9110 §13.1: `If-None-Match` decides when present (a list of tags, `*`, weak tags compared
 * weakly); otherwise `If-Modified-Since`, which a date unparsable or in another format ignores.
 */
function isCurrent(req: IncomingMessage, etag: string, modifiedAtMs: number): boolean {
  const tags = req.headers['if-none-match'];
  if (tags !== undefined) {
    return tags
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && modifiedAtMs <= since;
}

function wholeSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** §6: the v1.0 shape. Several requirements are alternatives: any one of them is enough. */
function securityV1(security: AgentSecurity): Card {
  const schemes: Card = {};
  if (security.apiKey) {
    schemes[API_KEY_SCHEME] = { apiKeySecurityScheme: { location: 'header', name: security.apiKey.header } };
  }
  if (security.http) {
    schemes[BEARER_SCHEME] = {
      httpAuthSecurityScheme: {
        scheme: 'Bearer',
        ...(security.http.bearerFormat && { bearerFormat: security.http.bearerFormat }),
      },
    };
  }
  return {
    securitySchemes: schemes,
    securityRequirements: Object.keys(schemes).map((name) => ({ schemes: { [name]: { list: [] } } })),
  };
}

/** §6: the v0.3 (OpenAPI) shape. */
function securityV03(security: AgentSecurity): Card {
  const schemes: Card = {};
  if (security.apiKey) {
    schemes[API_KEY_SCHEME] = { type: 'apiKey', in: 'header', name: security.apiKey.header };
  }
  if (security.http) {
    schemes[BEARER_SCHEME] = {
      type: 'http',
      scheme: 'bearer',
      ...(security.http.bearerFormat && { bearerFormat: security.http.bearerFormat }),
    };
  }
  return { securitySchemes: schemes, security: Object.keys(schemes).map((name) => ({ [name]: [] })) };
}

const API_KEY_SCHEME = 'apiKey';
const BEARER_SCHEME = 'bearer';
