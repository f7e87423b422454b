/**
 * The workspace gateway (protocol digest §8, seeds 002 and 003): one endpoint,
 * `POST {prefix}/agents/a2a`, in front of every defined agent. A v0.3 JSON-RPC request names its
 * agent at the top level (`agent_code` or `agent_id`); `X-API-Key` and `X-Workspace-ID` say who
 * calls and for which workspace. A task belongs to the (workspace, agent) that created it: from
 * anywhere else it is "not found", exactly like an unknown id.
 *
 * @example
 * {"agent_code":"explore","jsonrpc":"2.0","id":"req_01","method":"tasks/get","params":{"id":"task_123"}}
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { scopeOf } from '../../domain/scope.js';
import { A2AError, type A2AErrorType } from '../../domain/errors.js';
import { merge } from '../../lib/objects.js';
import { findSecret } from '../../lib/secrets.js';
import { JSONRPC_V03 } from '../jsonrpc-v03/methods.js';
import type { BindingContext } from '../shared/context.js';
import { negotiateExtensions } from '../shared/extensions.js';
import { jsonRpcHttpStatus } from '../shared/jsonrpc.js';
import { jsonRpcEndpoint, type EndpointRouting, type JsonRpcDialect } from '../shared/jsonrpc-endpoint.js';

export interface GatewayAgent {
  id: string;
  /** Its `agent_code`. */
  code: string;
  /** The workspaces it is exposed in; `"*"` is any. */
  workspaces: readonly string[];
  context: BindingContext;
}

export interface GatewayOptions {
  agents: readonly GatewayAgent[];
  /** API key → the workspaces it may use (`"*"`: any). Absent: no key needed (offline development). */
  apiKeys?: Readonly<Record<string, readonly string[]>>;
}

/** Without API keys, a request that names no workspace works in this one. */
export const DEFAULT_WORKSPACE = 'default';

const METHODS = ['message/send', 'message/stream', 'tasks/get', 'tasks/cancel', 'tasks/resubscribe'];

/** The v0.3 dialect, limited to what the gateway serves; anything else is -32601. */
const GATEWAY_DIALECT: JsonRpcDialect = {
  ...JSONRPC_V03,
  binding: 'gateway',
  methods: new Map([...JSONRPC_V03.methods].filter(([method]) => METHODS.includes(method))),
};

/** Errors found before dispatch keep an HTTP status of their own; the others, JSON-RPC's. */
const ROUTING_STATUS: Partial<Record<A2AErrorType, number>> = {
  ParseError: 400,
  InvalidRequestError: 400,
  PayloadTooLargeError: 413,
  UnauthenticatedError: 401,
  PermissionDeniedError: 403,
  AgentNotFoundError: 404,
};

export function gatewayEndpoint(base: BindingContext, options: GatewayOptions) {
  const routing: EndpointRouting = {
    negotiatesVersion: false,
    resolve: (request, req, res) => {
      const workspace = authorize(req, res, options.apiKeys);
      const agent = selectAgent(request.envelope, workspace, options.agents);
      if (agent.context.extensions) negotiateExtensions(req, res, agent.context.extensions);
      // Merged, not spread: a spread and then properties gave each call's context a hidden class of its own (Node 20).
      return merge(agent.context, {
        // The gateway checked the key; the agent's own declared security is for its direct endpoints.
        access: undefined,
        callContext: () => ({ scope: scopeOf({ agent: agent.id, workspace }), continueInContext: true }),
      });
    },
    httpStatus: (error) => ROUTING_STATUS[error.type] ?? jsonRpcHttpStatus(error),
  };
  return jsonRpcEndpoint(base, [GATEWAY_DIALECT], routing);
}

/** The workspace the caller may act in; throws 401 or 403 otherwise. */
function authorize(req: IncomingMessage, res: ServerResponse, apiKeys: GatewayOptions['apiKeys']): string {
  const presented = headerOf(req, 'x-api-key');
  const workspace = headerOf(req, 'x-workspace-id');
  if (!apiKeys) return workspace ?? DEFAULT_WORKSPACE;
  const key = presented === undefined ? undefined : findSecret(presented, Object.keys(apiKeys));
  if (key === undefined) {
    res.setHeader('WWW-Authenticate', 'ApiKey header="X-API-Key"');
    throw new A2AError(
      'UnauthenticatedError',
      presented === undefined
        ? 'Failed to authenticate: send your API key in the X-API-Key header.'
        : 'Failed to authenticate: the X-API-Key header does not hold a configured API key.',
    );
  }
  if (workspace === undefined) {
    throw new A2AError(
      'PermissionDeniedError',
      'Permission denied: name the workspace to act in with the X-Workspace-ID header.',
    );
  }
  const allowed = apiKeys[key]!;
  if (!allowed.includes('*') && !allowed.includes(workspace)) {
    throw new A2AError(
      'PermissionDeniedError',
      `Permission denied: this API key may not use workspace "${workspace}"; it may use ${allowed.map((w) => `"${w}"`).join(', ')}.`,
      { metadata: { workspace } },
    );
  }
  return workspace;
}

/** The agent the envelope's selector names in `workspace`; throws 400 or 404 otherwise. */
function selectAgent(
  envelope: Readonly<Record<string, unknown>>,
  workspace: string,
  agents: readonly GatewayAgent[],
): GatewayAgent {
  const code = envelope['agent_code'];
  const id = envelope['agent_id'];
  const invalid = (problem: string) => new A2AError('InvalidRequestError', `Invalid request: ${problem}.`);
  if (code === undefined && id === undefined) {
    const params = envelope['params'];
    const misplaced =
      params !== null && typeof params === 'object' && ('agent_code' in params || 'agent_id' in params);
    throw invalid(
      misplaced
        ? 'the agent selector belongs at the top level of the request, beside "jsonrpc", not in "params"'
        : 'name the agent with "agent_code" or "agent_id" at the top level of the request',
    );
  }
  for (const [name, value] of [
    ['agent_code', code],
    ['agent_id', id],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw invalid(`"${name}" must be a non-empty string`);
    }
  }
  const visible = agents.filter((a) => a.workspaces.includes('*') || a.workspaces.includes(workspace));
  const byCode = code === undefined ? undefined : visible.find((a) => a.code === code);
  const byId = id === undefined ? undefined : visible.find((a) => a.id === id);
  if (code !== undefined && id !== undefined && byCode !== byId) {
    throw invalid(`"agent_code" "${code}" and "agent_id" "${id}" name different agents; send one of them`);
  }
  const agent = byCode ?? byId;
  if (agent) return agent;
  const named = code !== undefined ? `agent_code "${code}"` : `agent_id "${id}"`;
  const known = visible.map((a) => `${a.code} (id ${a.id})`).join(', ') || 'none';
  throw new A2AError(
    'AgentNotFoundError',
    `Agent not found: no agent with ${named} in workspace "${workspace}". Agents here: ${known}.`,
    {
      metadata: {
        workspace,
        ...(code !== undefined ? { agent_code: code as string } : { agent_id: id as string }),
      },
    },
  );
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
