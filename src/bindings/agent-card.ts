/**
 * The agent card (§6), built from the loaded scenarios' skills. URLs are absolute: from
 * `--public-url` when given, else from the request's Host, so the card is right behind any port.
 *
 * One document cannot serve both versions (their `securitySchemes` shapes differ), so the card
 * follows `A2A-Version` like the reference SDK server: `1.0` gets the v1.0 card; no header (or
 * `0.3`) gets the v0.3 card with the v1.0 `supportedInterfaces` embedded. `Vary: A2A-Version`.
 * Declared security follows the same split: `securityRequirements` in v1.0, `security` in v0.3.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentSecurity } from '../agents/schema.js';
import type { SkillInfo } from '../scenario/model.js';

export interface AgentCardOptions {
  name: string;
  description: string;
  version: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  /** Overrides the URL derived from the request, e.g. behind a proxy. */
  publicUrl?: string;
  /** Where the agent is mounted below the base URL, e.g. `/agents/explore`. */
  path?: string;
  security?: AgentSecurity;
  /** Whether GetExtendedAgentCard is offered (capabilities.extendedAgentCard). */
  extendedCard: boolean;
  /** Whether webhooks are offered (capabilities.pushNotifications). */
  pushNotifications: boolean;
  inputModes: readonly string[];
  outputModes: readonly string[];
}

type Card = Record<string, unknown>;

export class AgentCards {
  constructor(
    private readonly options: AgentCardOptions,
    private readonly skills: () => readonly SkillInfo[],
  ) {}

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
      supportedInterfaces: interfaces(base),
      ...(o.provider && { provider: o.provider }),
      version: o.version,
      ...(o.documentationUrl && { documentationUrl: o.documentationUrl }),
      capabilities: {
        streaming: true,
        pushNotifications: o.pushNotifications,
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
      additionalInterfaces: [{ url: base, transport: 'JSONRPC' }],
      supportedInterfaces: interfaces(base),
      ...(o.provider && { provider: o.provider }),
      version: o.version,
      ...(o.documentationUrl && { documentationUrl: o.documentationUrl }),
      capabilities: {
        streaming: true,
        pushNotifications: o.pushNotifications,
        stateTransitionHistory: false,
      },
      defaultInputModes: [...o.inputModes],
      defaultOutputModes: [...o.outputModes],
      skills: this.wireSkills(extended),
      supportsAuthenticatedExtendedCard: o.extendedCard,
      ...(o.security && securityV03(o.security)),
    };
  }

  /** Serves the public card with ETag revalidation. */
  serve(req: IncomingMessage, res: ServerResponse, version: string | undefined): void {
    const base = this.baseUrl(req);
    const body = JSON.stringify(version === '1.0' ? this.v1(base) : this.v03(base));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const headers = { ETag: etag, 'Cache-Control': 'no-cache', Vary: 'A2A-Version' };
    if (req.headers['if-none-match'] === etag) {
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

  private wireSkills(extended: boolean): Card[] {
    return this.skills()
      .filter((s) => extended || !s.extended)
      .map(({ extended: _extended, ...skill }) => ({ ...skill }));
  }
}

/** JSON-RPC first: it is the default binding of most clients. Both live at the same base URL. */
function interfaces(base: string): Card[] {
  return [
    { url: base, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: base, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ];
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
