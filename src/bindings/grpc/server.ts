/**
 * The gRPC entry: `@grpc/grpc-js` servers on ports of their own, serving A2A v1.0
 * (`lf.a2a.v1.A2AService`) and A2A v0.3 (`a2a.v1.A2AService`) side by side, told apart by their
 * service names. Every call of either is journaled as a request is and served through call.ts;
 * gRPC has no `/agents/{id}` path, so each defined agent has a port of its own, and on the root
 * agent's port `x-sim-agent` metadata names the agent a call is for (the root agent when absent).
 */
import { createServer } from 'node:net';
import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { portError } from '../../lib/listen-error.js';
import type { BindingContext } from '../shared/context.js';
import type { GrpcRouting, OpenExchange } from './call.js';
import { a2aProtos } from './protos.js';
import { SERVICE_V03, serviceV03 } from './service-v03.js';
import { SERVICE_V1, serviceV1 } from './service-v1.js';

export interface GrpcAgent {
  id: string;
  context: BindingContext;
}

export interface GrpcListening {
  /** The root agent's port, where `x-sim-agent` metadata reaches the defined agents too. */
  port: number;
  /** Each defined agent's own port, where every call is for that agent: what its card names. */
  agentPorts: ReadonlyMap<string, number>;
  /** Stops taking calls and ends those still open (streams included). */
  close(): Promise<void>;
}

/**
 * Builds the servers and listens: the root agent's on `host:port` (0: any free port), each defined
 * agent's on a free port of its own. A client that finds the agent by its card (the SDKs, the TCK)
 * sets no metadata of ours, and gRPC has no path to name the agent by.
 */
export async function listenGrpc(
  root: BindingContext,
  agents: readonly GrpcAgent[],
  open: OpenExchange,
  { host, port, maxBodyBytes }: { host: string; port: number; maxBodyBytes: number },
): Promise<GrpcListening> {
  const servers: Server[] = [];
  const close = () => {
    // Open streams would hold a graceful shutdown for as long as they last.
    for (const server of servers) server.forceShutdown();
    return Promise.resolve();
  };
  const listen = async (routing: GrpcRouting, at: number) => {
    const server = serverFor(routing, maxBodyBytes);
    servers.push(server);
    return bind(server, host, at);
  };
  try {
    const rootPort = await listen(
      { root, agents: new Map(agents.map((a) => [a.id, a.context])), open },
      port,
    );
    const agentPorts = new Map<string, number>();
    for (const agent of agents) {
      agentPorts.set(agent.id, await listen({ root: agent.context, agents: new Map(), open }, 0));
    }
    return { port: rootPort, agentPorts, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function serverFor(routing: GrpcRouting, maxBodyBytes: number): Server {
  const protos = a2aProtos();
  // The body limit of the HTTP bindings is the message limit here: a larger one is RESOURCE_EXHAUSTED.
  const server = new Server({ 'grpc.max_receive_message_length': maxBodyBytes });
  server.addService(protos[SERVICE_V1] as ServiceDefinition, serviceV1(routing));
  server.addService(protos[SERVICE_V03] as ServiceDefinition, serviceV03(routing));
  return server;
}

async function bind(server: Server, host: string, port: number): Promise<number> {
  // grpc-js logs a line of its own on stderr when a bind fails: a port found taken first is
  // refused with our error alone. Should it be taken in between, grpc-js' error says so too.
  if (port !== 0) await portFree(host, port);
  return new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${host.includes(':') ? `[${host}]` : host}:${port}`,
      ServerCredentials.createInsecure(),
      (error, p) => (error ? reject(portError(error, 'grpcPort', host, port)) : resolve(p)),
    ),
  );
}

function portFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(portError(error, 'grpcPort', host, port)));
    probe.listen({ host, port }, () => probe.close(() => resolve()));
  });
}
