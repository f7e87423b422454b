/**
 * What a client would find wrong with an agent card, by the version it reads the card as: the
 * fields the version requires (v1.0 `AgentCard`, §8; v0.3 `AgentCard`), interfaces a client can
 * use, skills it can list. The dashboard's card view shows them (`POST /_sim/cards/check`), for a
 * card the simulator serves or one pasted in.
 */
import { arrayOf, isRecord } from '../lib/objects.js';

export type CardVersion = '1.0' | '0.3';

export interface CardProblem {
  /** Where, as a JSON path into the card: `skills[0].tags`. */
  path: string;
  message: string;
  /** An error breaks a client that reads the card; a warning works here and fails elsewhere. */
  severity: 'error' | 'warning';
}

const BINDINGS_V1 = ['JSONRPC', 'HTTP+JSON', 'GRPC'];
const TRANSPORTS_V03 = ['JSONRPC', 'HTTP+JSON', 'GRPC'];
/** A card checked has at most this many problems listed: a hostile card could have millions. */
const MAX_PROBLEMS = 100;

/**
 * The problems a client reading `card` as `version` would meet; none for a good card.
 * @example checkCard(await (await fetch(url, { headers: { 'A2A-Version': '1.0' } })).json(), '1.0')
 */
export function checkCard(card: unknown, version: CardVersion): CardProblem[] {
  const problems: CardProblem[] = [];
  const add = (path: string, message: string, severity: CardProblem['severity'] = 'error') => {
    if (problems.length < MAX_PROBLEMS) problems.push({ path, message, severity });
  };
  if (!isRecord(card)) {
    add('', 'a card is a JSON object');
    return problems;
  }
  for (const field of ['name', 'description', 'version']) nonEmptyString(card, field, field, add);
  if (!isRecord(card['capabilities'])) add('capabilities', 'required: an object (it may be empty)');
  for (const field of ['defaultInputModes', 'defaultOutputModes']) {
    const modes = card[field];
    if (!Array.isArray(modes) || modes.length === 0 || !modes.every((m) => typeof m === 'string' && m)) {
      add(field, 'required: a list of media types, at least one');
    }
  }
  if (version === '1.0') checkInterfacesV1(card, add);
  else checkInterfacesV03(card, add);
  if (!Array.isArray(card['skills'])) add('skills', 'required: a list (it may be empty)');
  arrayOf(card['skills']).forEach((skill, i) => {
    const at = `skills[${i}]`;
    if (!isRecord(skill)) return add(at, 'a skill is an object');
    for (const field of ['id', 'name', 'description']) nonEmptyString(skill, field, `${at}.${field}`, add);
    const tags = skill['tags'];
    if (!Array.isArray(tags) || tags.length === 0) add(`${at}.tags`, 'required: at least one tag');
  });
  return problems;
}

type Add = (path: string, message: string, severity?: CardProblem['severity']) => void;

function nonEmptyString(object: Record<string, unknown>, field: string, path: string, add: Add): void {
  const value = object[field];
  if (typeof value !== 'string' || value === '') add(path, 'required: a non-empty string');
}

function checkInterfacesV1(card: Record<string, unknown>, add: Add): void {
  const interfaces = card['supportedInterfaces'];
  if (!Array.isArray(interfaces) || interfaces.length === 0) {
    add('supportedInterfaces', 'required: at least one interface (a v1.0 client finds the agent by it)');
    return;
  }
  interfaces.forEach((entry, i) => {
    const at = `supportedInterfaces[${i}]`;
    if (!isRecord(entry)) return add(at, 'an interface is an object');
    const binding = entry['protocolBinding'];
    if (typeof binding !== 'string' || !BINDINGS_V1.includes(binding)) {
      add(`${at}.protocolBinding`, `one of ${BINDINGS_V1.join(', ')}`);
    }
    nonEmptyString(entry, 'protocolVersion', `${at}.protocolVersion`, add);
    checkUrl(entry['url'], `${at}.url`, binding === 'GRPC', add);
  });
}

function checkInterfacesV03(card: Record<string, unknown>, add: Add): void {
  nonEmptyString(card, 'protocolVersion', 'protocolVersion', add);
  checkUrl(card['url'], 'url', card['preferredTransport'] === 'GRPC', add);
  const preferred = card['preferredTransport'];
  if (preferred !== undefined && (typeof preferred !== 'string' || !TRANSPORTS_V03.includes(preferred))) {
    add('preferredTransport', `one of ${TRANSPORTS_V03.join(', ')}`);
  }
  arrayOf(card['additionalInterfaces']).forEach((entry, i) => {
    const at = `additionalInterfaces[${i}]`;
    if (!isRecord(entry)) return add(at, 'an interface is an object');
    nonEmptyString(entry, 'transport', `${at}.transport`, add);
    checkUrl(entry['url'], `${at}.url`, entry['transport'] === 'GRPC', add);
  });
}

/** A URL a client can call: absolute (a gRPC one is `host:port`), and not only from this machine. */
function checkUrl(url: unknown, path: string, grpc: boolean, add: Add): void {
  if (typeof url !== 'string' || url === '') return add(path, 'required: the URL to call');
  let host: string;
  try {
    host = new URL(grpc && !url.includes('://') ? `grpc://${url}` : url).hostname;
  } catch {
    return add(path, `not an absolute URL: ${url.slice(0, 200)}`);
  }
  if (/^(?:localhost|127\.|\[::1\]$|0\.0\.0\.0$)/.test(host)) {
    add(
      path,
      `${host} is this machine: a client elsewhere cannot reach it (--public-url names another)`,
      'warning',
    );
  }
}
