/**
 * A gRPC client of the simulator's services made by grpc-js itself from the shipped protos, for
 * what the SDKs' clients do not let a test do: metadata of its own, cancelling, malformed requests.
 */
import { credentials, loadPackageDefinition, Metadata, type GrpcObject } from '@grpc/grpc-js';
import { a2aProtos } from '../../src/bindings/grpc/protos.js';

/** The methods these tests call, untyped as grpc-js makes them from the proto. */
export type RawGrpcService = Record<
  'SendMessage' | 'SendStreamingMessage' | 'GetTask' | 'CancelTask' | 'SubscribeToTask',
  (...args: any[]) => any
>;

/** A client of `lf.a2a.v1.A2AService` (A2A 1.0) or `a2a.v1.A2AService` (A2A 0.3) at `host:port`. */
export function rawGrpcClient(address: string, version: '1.0' | '0.3' = '1.0'): RawGrpcService {
  const protos = loadPackageDefinition(a2aProtos()) as unknown as {
    lf: { a2a: { v1: GrpcObject } };
    a2a: { v1: GrpcObject };
  };
  const pkg = version === '1.0' ? protos.lf.a2a.v1 : protos.a2a.v1;
  const Client = pkg['A2AService'] as unknown as new (
    address: string,
    creds: ReturnType<typeof credentials.createInsecure>,
  ) => RawGrpcService;
  return new Client(address, credentials.createInsecure());
}

/** Metadata with these text entries. */
export function metadataOf(pairs: Record<string, string>): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(pairs)) metadata.set(key, value);
  return metadata;
}
