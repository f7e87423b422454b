/** Every conformance driver, with what each cannot do and the simulator options it needs. */
import { jsonRpcDriver, jsonRpcV03Driver, restDriver, type DriverEntry } from './drivers.js';
import {
  connectV03GrpcClient,
  connectV03RestClient,
  sdkClientDriver,
  sdkDriver,
  sdkGrpcDriver,
  sdkV03Driver,
} from './sdk-drivers.js';

const V03_HAS_NO_LIST = { listTasks: 'A2A v0.3 has no tasks/list; ListTasks is new in v1.0' };

export const ALL_DRIVERS: DriverEntry[] = [
  { name: 'REST (fetch)', factory: restDriver },
  { name: 'JSON-RPC (fetch)', factory: jsonRpcDriver },
  { name: '@a2a-js/sdk JSONRPC', factory: sdkDriver('JSONRPC') },
  { name: '@a2a-js/sdk HTTP+JSON', factory: sdkDriver('HTTP+JSON') },
  { name: 'v0.3 JSON-RPC (fetch)', factory: jsonRpcV03Driver, unsupported: V03_HAS_NO_LIST },
  { name: '@a2a-js/sdk compat v0.3', factory: sdkV03Driver, unsupported: V03_HAS_NO_LIST },
  {
    name: '@a2a-js/sdk compat v0.3 HTTP+JSON',
    factory: sdkClientDriver('@a2a-js/sdk compat v0.3 HTTP+JSON', connectV03RestClient),
    unsupported: {
      ...V03_HAS_NO_LIST,
      // Its FromProto.taskArtifactUpdateEvent (1.3.0) leaves `append` out; test/bindings/v03-rest.test.ts
      // reads the wire.
      artifactAppend: "the SDK's v0.3 REST transport drops append when it reads an artifact update",
    },
  },
  { name: '@a2a-js/sdk GRPC', factory: sdkGrpcDriver, options: { grpcPort: 0 } },
  {
    name: '@a2a-js/sdk compat v0.3 GRPC',
    factory: sdkClientDriver('@a2a-js/sdk compat v0.3 GRPC', connectV03GrpcClient),
    unsupported: {
      ...V03_HAS_NO_LIST,
      // The same FromProto as its v0.3 REST transport.
      artifactAppend: "the SDK's v0.3 gRPC transport drops append when it reads an artifact update",
      historyLengthZero:
        "the v0.3 proto's GetTaskRequest.history_length is a plain int32: 0 is its default, which proto3 does not send",
    },
    options: { grpcPort: 0 },
  },
];
