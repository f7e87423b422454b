/**
 * The gRPC entry: one `@grpc/grpc-js` server on its own port, serving A2A v1.0
 * (`lf.a2a.v1.A2AService`) and A2A v0.3 (`a2a.v1.A2AService`) side by side, told apart by their
 * service names. Every call of either is journaled as a request is and served through call.ts;
 * `x-sim-agent` metadata names the agent a call is for (gRPC has no `/agents/{id}` path), the root
 * agent when absent.
 */
import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import type { BindingContext } from '../shared/context.js';
import type { OpenExchange } from './call.js';
import { a2aProtos } from './protos.js';
import { SERVICE_V03, serviceV03 } from './service-v03.js';
import { SERVICE_V1, serviceV1 } from './service-v1.js';

export interface GrpcAgent {
  id: string;
  context: BindingContext;
}

export interface GrpcListening {
  server: Server;
  port: number;
  /** Stops taking calls and ends those still open (streams included). */
  close(): Promise<void>;
}

/** Builds the server and listens on `host:port` (0: any free port). */
export async function listenGrpc(
  root: BindingContext,
  agents: readonly GrpcAgent[],
  open: OpenExchange,
  { host, port, maxBodyBytes }: { host: string; port: number; maxBodyBytes: number },
): Promise<GrpcListening> {
  const protos = a2aProtos();
  const routing = { root, agents: new Map(agents.map((a) => [a.id, a.context])), open };
  // The body limit of the HTTP bindings is the message limit here: a larger one is RESOURCE_EXHAUSTED.
  const server = new Server({ 'grpc.max_receive_message_length': maxBodyBytes });
  server.addService(protos[SERVICE_V1] as ServiceDefinition, serviceV1(routing));
  server.addService(protos[SERVICE_V03] as ServiceDefinition, serviceV03(routing));
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${host.includes(':') ? `[${host}]` : host}:${port}`,
      ServerCredentials.createInsecure(),
      (error, p) => (error ? reject(error) : resolve(p)),
    ),
  );
  return {
    server,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        // Open streams would hold a graceful shutdown for as long as they last.
        server.forceShutdown();
        resolve();
      }),
  };
}
