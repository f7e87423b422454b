/**
 * The official @a2a-js/sdk client as conformance drivers: on each v1.0 transport (JSON-RPC,
 * HTTP+JSON, gRPC) and as a v0.3 peer (JSON-RPC, HTTP+JSON, gRPC).
 */
import {
  AGENT_CARD_PATH,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  Task,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type AgentCardResolver,
  type Client,
} from '@a2a-js/sdk/client';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { collect, DriverError, type DriverFactory, type Frame, type StreamHandle } from './drivers.js';

export function sdkDriver(transport: 'JSONRPC' | 'HTTP+JSON'): DriverFactory {
  return sdkClientDriver(`@a2a-js/sdk ${transport}`, (base) =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [transport] }),
    ).createFromUrl(base),
  );
}

/**
 * Discovers the agent as a v0.3 peer does: the card fetched without A2A-Version (v0.3 clients send
 * none) and read by its v0.3 fields (`url`, `preferredTransport`, `protocolVersion`).
 * @note The SDK's own resolver would read the embedded v1.0 `supportedInterfaces` instead and, by
 * design, prefer v1.0 over a v0.3 interface; this reading is what makes the client a v0.3 one.
 */
const v03CardResolver: AgentCardResolver = {
  resolve: async (baseUrl, path) =>
    parseLegacyAgentCard(await (await fetch(new URL(path ?? AGENT_CARD_PATH, baseUrl))).json()),
};

/** The SDK client with its v0.3 compat layer on: the v0.3 interface gets the SDK's v0.3 transport. */
export async function connectV03Client(base: string): Promise<Client> {
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: v03CardResolver,
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    }),
  ).createFromUrl(base);
  if (client.transport.protocolVersion !== '0.3')
    throw new Error(`expected the SDK's v0.3 transport, got A2A ${client.transport.protocolVersion}`);
  return client;
}

export const sdkV03Driver: DriverFactory = sdkClientDriver('@a2a-js/sdk compat v0.3', connectV03Client);

/**
 * The same, preferring HTTP+JSON: the SDK picks the v0.3 HTTP+JSON interface the v0.3 card lists
 * and its v0.3 REST transport for it.
 */
export async function connectV03RestClient(base: string): Promise<Client> {
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: v03CardResolver,
      transports: [new RestTransportFactory({ legacyCompat: { enabled: true } })],
      preferredTransports: ['HTTP+JSON'],
    }),
  ).createFromUrl(base);
  const { protocolName, protocolVersion } = client.transport;
  if (protocolName !== 'HTTP+JSON' || protocolVersion !== '0.3')
    throw new Error(`expected the SDK's v0.3 HTTP+JSON transport, got ${protocolName} ${protocolVersion}`);
  return client;
}
/**
 * The same, preferring gRPC: the SDK picks the GRPC interface the v0.3 card lists and its v0.3 gRPC
 * transport (`a2a.v1.A2AService`) for it.
 */
export async function connectV03GrpcClient(base: string): Promise<Client> {
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: v03CardResolver,
      transports: [new GrpcTransportFactory({ legacyCompat: { enabled: true } })],
      preferredTransports: ['GRPC'],
    }),
  ).createFromUrl(base);
  const { protocolName, protocolVersion } = client.transport;
  if (protocolName !== 'GRPC' || protocolVersion !== '0.3')
    throw new Error(`expected the SDK's v0.3 gRPC transport, got ${protocolName} ${protocolVersion}`);
  return client;
}

/** The SDK's gRPC client (v1.0), found on the card of a simulator that serves gRPC. */
export const sdkGrpcDriver: DriverFactory = sdkClientDriver('@a2a-js/sdk GRPC', async (base) => {
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: ['GRPC'],
    }),
  ).createFromUrl(base);
  if (client.transport.protocolName !== 'GRPC')
    throw new Error(`expected gRPC, got ${client.transport.protocolName}`);
  return client;
});

export function sdkClientDriver(name: string, connect: (base: string) => Promise<Client>): DriverFactory {
  return async (base) => {
    const client = await connect(base);
    const sdk = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        throw sdkError(error);
      }
    };
    /** Reads the first item at once, so an error answered instead of a stream surfaces on open. */
    const open = async (generator: AsyncGenerator<any>): Promise<StreamHandle> => {
      let pending: IteratorResult<any> | undefined = await sdk(() => generator.next());
      const next = async (): Promise<Frame | undefined> => {
        const item = pending ?? (await sdk(() => generator.next()));
        pending = undefined;
        return item.done ? undefined : { payload: StreamResponse.toJSON(item.value) };
      };
      return {
        next,
        rest: () => collect(next),
        cancel: async () => {
          await generator.return(undefined);
        },
      };
    };
    return {
      name,
      seesEventIds: false,
      send: (request) =>
        sdk(async () => {
          const result: any = await client.sendMessage(SendMessageRequest.fromJSON(request));
          return 'status' in result ? { task: Task.toJSON(result) } : { message: Message.toJSON(result) };
        }),
      stream: (request) => open(client.sendMessageStream(SendMessageRequest.fromJSON(request))),
      getTask: (id, historyLength) =>
        sdk(async () =>
          Task.toJSON(
            await client.getTask({ id, tenant: '', ...(historyLength !== undefined && { historyLength }) }),
          ),
        ),
      listTasks: (query) =>
        sdk(async () => ListTasksResponse.toJSON(await client.listTasks(ListTasksRequest.fromJSON(query)))),
      cancel: (id) =>
        sdk(async () => Task.toJSON(await client.cancelTask({ id, tenant: '', metadata: undefined }))),
      subscribe: (id) => open(client.resubscribeTask({ id, tenant: '' })),
    };
  };
}

/** The SDK raises typed errors, wrapped in `cause` when they arrive inside a JSON-RPC stream. */
function sdkError(error: unknown): unknown {
  const typed = (error as any)?.cause?.name ? (error as any).cause : error;
  const name: string | undefined = (typed as any)?.name;
  if (!name || name === 'Error' || name === 'TypeError') return error;
  const normalized = name === 'RequestMalformedError' ? 'InvalidParamsError' : name;
  return new DriverError(normalized, (typed as Error).message);
}
