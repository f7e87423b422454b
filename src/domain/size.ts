/**
 * What a task costs to keep, approximately: the characters of the texts, data and files it
 * carries, plus a fixed allowance per event and per part for the objects around them. The store's
 * byte budget counts this, so a client that sends large messages fills it as fast as it fills the
 * heap. An estimate, not a measurement: it walks what an event adds, never the whole task.
 */
import type { JsonValue, Message, Part, PushConfigInput, TaskEvent } from './types.js';

/** The objects an event brings besides its content (log entry, status, ids, timestamp). */
const EVENT_OVERHEAD = 400;
/** A part or message object, with its kind and optional fields. */
const OBJECT_OVERHEAD = 100;

/** The bytes `event` adds to its task: the new content only (a snapshot's history is counted once). */
export function eventBytes(event: TaskEvent): number {
  switch (event.kind) {
    case 'task': {
      // A task event opens a turn: what is new is the user's message that opened it, and the ids
      // (a client names the context; a proxied agent names both, and either may be long).
      const { id, contextId, history } = event.task;
      const latest = history[history.length - 1];
      return EVENT_OVERHEAD + id.length + contextId.length + (latest ? messageBytes(latest) : 0);
    }
    case 'status':
      return EVENT_OVERHEAD + (event.status.message ? messageBytes(event.status.message) : 0);
    case 'artifact':
      return EVENT_OVERHEAD + partsBytes(event.artifact.parts) + jsonBytes(event.artifact.metadata);
  }
}

/** A config id the server makes: a UUID. */
const MADE_ID_CHARS = 36;

/** What a webhook config holds: its client's strings (a URL may be as long as a request body). */
export function pushConfigBytes(config: PushConfigInput): number {
  const { authentication } = config;
  return (
    2 * OBJECT_OVERHEAD +
    (config.id?.length ?? MADE_ID_CHARS) +
    config.url.length +
    (config.token?.length ?? 0) +
    (authentication ? authentication.scheme.length + (authentication.credentials?.length ?? 0) : 0)
  );
}

export function messageBytes(message: Message): number {
  return OBJECT_OVERHEAD + partsBytes(message.parts) + jsonBytes(message.metadata);
}

function partsBytes(parts: readonly Part[]): number {
  let bytes = 0;
  for (const part of parts) {
    bytes += OBJECT_OVERHEAD + jsonBytes(part.metadata);
    switch (part.kind) {
      case 'text':
        bytes += part.text.length;
        break;
      case 'bytes':
        bytes += part.bytes.length;
        break;
      case 'url':
        bytes += part.url.length;
        break;
      case 'data':
        bytes += jsonBytes(part.data);
        break;
    }
  }
  return bytes;
}

/** Characters of a JSON value, walked without serialising it. */
function jsonBytes(value: JsonValue | undefined): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object') return 8;
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) bytes += jsonBytes(item) + 1;
  } else {
    for (const key in value) bytes += key.length + 4 + jsonBytes(value[key]);
  }
  return bytes;
}
