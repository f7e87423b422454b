/**
 * The A2A protos, as shipped in proto/ (v1.0 `lf.a2a.v1`, v0.3 `a2a.v1`), loaded at run time with
 * proto-loader, and the two shapes one message has here: proto-loader's objects (what grpc-js
 * serializes and deserializes: `Struct` as `{fields}`, `Timestamp` as `{seconds, nanos}`) and
 * ProtoJSON (what the v1.0 and v0.3 codecs speak: plain JSON, RFC 3339 strings).
 *
 * @note Loaded, not generated: the codecs already speak ProtoJSON, so generated classes would only
 * add a second, typed copy of the same shapes to keep in step with the protos, and a build step;
 * proto-loader reads the normative .proto files as they are, and the few well-known types that
 * differ between its objects and ProtoJSON are converted here, by walking the loaded descriptors.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSync, type Options, type PackageDefinition } from '@grpc/proto-loader';
import { invalidParams } from '../../domain/errors.js';
import { PROTO_DIR } from '../proto-files.js';
import { MAX_JSON_DEPTH } from '../shared/http.js';

/**
 * ProtoJSON's choices where proto-loader lets us choose: enums by name, int64 and bytes as strings.
 * The google/api imports resolve to empty stand-ins in PROTO_DIR: the A2A protos use them only for
 * annotations (HTTP mappings, field behaviour) that change nothing on the gRPC wire.
 */
const LOADER_OPTIONS: Options = {
  keepCase: false,
  enums: String,
  longs: String,
  bytes: String,
  defaults: false,
  oneofs: false,
  includeDirs: [PROTO_DIR],
};

const PROTO_FILES = ['a2a-v1.0.proto', 'a2a-v0.3.proto'];

let loaded: PackageDefinition | undefined;

/** Both A2A protos, loaded once (a few tens of milliseconds) when a gRPC server first needs them. */
export function a2aProtos(): PackageDefinition {
  return (loaded ??= loadSync(PROTO_FILES, LOADER_OPTIONS));
}

let renamed: ReadonlyMap<string, string> | undefined;

/**
 * The ProtoJSON name of a field whose `json_name` differs from its own, keyed `Message.field` (in
 * proto-loader's casing): the v0.3 proto names `SendMessageRequest.request`, `StreamResponse.msg`,
 * ... `message` in JSON. proto-loader's descriptors drop `json_name`, so it is read from the files.
 * @note A field is taken to belong to the last message opened before it: no message of the A2A
 * protos that has a renamed field is nested.
 */
function jsonNames(): ReadonlyMap<string, string> {
  if (renamed) return renamed;
  const names = new Map<string, string>();
  for (const file of PROTO_FILES) {
    const text = readFileSync(path.join(PROTO_DIR, file), 'utf8').replace(/\/\/.*$/gm, '');
    const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1] ?? '';
    let message = '';
    for (const [, opened, field, options] of text.matchAll(
      /\bmessage\s+(\w+)\s*\{|(\w+)\s*=\s*\d+\s*\[([^\]]*)\]/g,
    )) {
      if (opened !== undefined) message = opened;
      const json = options && /\bjson_name\s*=\s*"(\w+)"/.exec(options)?.[1];
      if (field !== undefined && json) names.set(`${pkg}.${message}.${camelCase(field)}`, json);
    }
  }
  return (renamed = names);
}

/** proto-loader's field names (`keepCase: false`): `status_update` is `statusUpdate`. */
function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

interface FieldDescriptor {
  name: string;
  type: string;
  typeName: string;
  label: string;
}

interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: (MessageDescriptor & { options?: { mapEntry?: boolean } | null })[];
}

type Json = Record<string, unknown>;

/** The ProtoJSON of a message proto-loader decoded: what the codecs read. */
export function toProtoJson(type: string, value: unknown): Json {
  return convert(type, value, 'toJson', 0) as Json;
}

/** A codec's ProtoJSON as the object proto-loader encodes. */
export function fromProtoJson(type: string, value: unknown): Json {
  return convert(type, value, 'fromJson', 0) as Json;
}

type Direction = 'toJson' | 'fromJson';

function convert(type: string, value: unknown, direction: Direction, depth: number): unknown {
  if (depth > MAX_JSON_DEPTH) {
    throw invalidParams([{ field: 'request', description: `nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  }
  const known = WELL_KNOWN[type];
  if (known) return known[direction](value, depth);
  const descriptor = messageDescriptor(type);
  if (!descriptor || value === null || typeof value !== 'object') return value;
  const out: Json = {};
  const source = value as Json;
  for (const field of descriptor.field) {
    const json = jsonNames().get(`${type}.${field.name}`) ?? field.name;
    const [from, to] = direction === 'toJson' ? [field.name, json] : [json, field.name];
    const v = source[from];
    if (v === undefined) continue;
    out[to] = convertField(type, descriptor, field, v, direction, depth + 1);
  }
  return out;
}

function convertField(
  owner: string,
  descriptor: MessageDescriptor,
  field: FieldDescriptor,
  value: unknown,
  direction: Direction,
  depth: number,
): unknown {
  if (field.type !== 'TYPE_MESSAGE') return value;
  const entry = descriptor.nestedType.find((n) => n.name === field.typeName && n.options?.mapEntry);
  if (entry) {
    const valueField = entry.field.find((f) => f.name === 'value')!;
    if (valueField.type !== 'TYPE_MESSAGE' || value === null || typeof value !== 'object') return value;
    const target = resolve(owner, valueField.typeName);
    return Object.fromEntries(
      Object.entries(value as Json).map(([k, v]) => [k, convert(target, v, direction, depth)]),
    );
  }
  const target = resolve(owner, field.typeName);
  if (field.label === 'LABEL_REPEATED') {
    return Array.isArray(value) ? value.map((v) => convert(target, v, direction, depth)) : value;
  }
  return convert(target, value, direction, depth);
}

/** A field's type by its full name: the descriptors name types of the same package by their short name. */
function resolve(owner: string, typeName: string): string {
  if (typeName in a2aProtos()) return typeName;
  return `${owner.slice(0, owner.lastIndexOf('.'))}.${typeName}`;
}

function messageDescriptor(type: string): MessageDescriptor | undefined {
  const entry = a2aProtos()[type] as { type?: MessageDescriptor; format?: string } | undefined;
  return entry?.format?.includes('DescriptorProto') ? entry.type : undefined;
}

interface Conversion {
  toJson(value: unknown, depth: number): unknown;
  fromJson(value: unknown, depth: number): unknown;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function deeper(depth: number): number {
  if (depth >= MAX_JSON_DEPTH) {
    throw invalidParams([{ field: 'request', description: `nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  }
  return depth + 1;
}

const STRUCT: Conversion = {
  toJson: (value, depth) =>
    Object.fromEntries(
      Object.entries(isObject(value) && isObject(value['fields']) ? value['fields'] : {}).map(([k, v]) => [
        k,
        VALUE.toJson(v, deeper(depth)),
      ]),
    ),
  fromJson: (value, depth) => ({
    fields: Object.fromEntries(
      Object.entries(isObject(value) ? value : {}).map(([k, v]) => [k, VALUE.fromJson(v, deeper(depth))]),
    ),
  }),
};

const LIST: Conversion = {
  toJson: (value, depth) =>
    (isObject(value) && Array.isArray(value['values']) ? value['values'] : []).map((v: unknown) =>
      VALUE.toJson(v, deeper(depth)),
    ),
  fromJson: (value, depth) => ({
    values: (Array.isArray(value) ? value : []).map((v: unknown) => VALUE.fromJson(v, deeper(depth))),
  }),
};

const VALUE: Conversion = {
  toJson(value, depth) {
    if (!isObject(value)) return null;
    if ('stringValue' in value) return value['stringValue'];
    if ('numberValue' in value) return value['numberValue'];
    if ('boolValue' in value) return value['boolValue'];
    if ('structValue' in value) return STRUCT.toJson(value['structValue'], depth);
    if ('listValue' in value) return LIST.toJson(value['listValue'], depth);
    return null;
  },
  fromJson(value, depth) {
    if (typeof value === 'string') return { stringValue: value };
    if (typeof value === 'number') return { numberValue: value };
    if (typeof value === 'boolean') return { boolValue: value };
    if (Array.isArray(value)) return { listValue: LIST.fromJson(value, depth) };
    if (isObject(value)) return { structValue: STRUCT.fromJson(value, depth) };
    return { nullValue: 'NULL_VALUE' };
  },
};

const TIMESTAMP: Conversion = {
  toJson(value) {
    if (!isObject(value)) return undefined;
    const ms = Number(value['seconds'] ?? 0) * 1000 + Math.floor(Number(value['nanos'] ?? 0) / 1e6);
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
  },
  fromJson(value) {
    const ms = typeof value === 'string' ? Date.parse(value) : NaN;
    if (!Number.isFinite(ms)) return undefined;
    const seconds = Math.floor(ms / 1000);
    return { seconds: String(seconds), nanos: (ms - seconds * 1000) * 1e6 };
  },
};

const WELL_KNOWN: Readonly<Record<string, Conversion>> = Object.freeze({
  'google.protobuf.Struct': STRUCT,
  'google.protobuf.Value': VALUE,
  'google.protobuf.ListValue': LIST,
  'google.protobuf.Timestamp': TIMESTAMP,
});
