/**
 * Where the A2A .proto files are: src/bindings/grpc/proto, which the package ships. Resolved from a
 * file two levels under the package root, as the built library (dist/bindings/) and the bundled
 * CLI (dist/cli/main.js) are too, so the same relative URL finds it from all three.
 */
import { fileURLToPath } from 'node:url';

export const PROTO_DIR = fileURLToPath(new URL('../../src/bindings/grpc/proto', import.meta.url));
