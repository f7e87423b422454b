/**
 * What the simulator takes from a real agent's card: how the agent presents itself (name,
 * description, skills, capabilities, modes, security schemes), read from a v1.0 or a v0.3 card.
 * Never credentials: a card holds none, and nothing else is copied.
 */
import { arrayOf, isRecord } from '../lib/objects.js';
import type { JsonObject, JsonValue } from '../domain/types.js';
import type { SkillInfo } from '../scenario/model.js';

export interface CardSummary {
  name: string;
  description: string;
  version?: string;
  skills: SkillInfo[];
  streaming: boolean;
  pushNotifications: boolean;
  extensions: { uri: string; required: boolean; description?: string }[];
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  /** The card's `securitySchemes`, as the card wrote them. */
  securitySchemes?: JsonObject;
}

export function summarizeCard(card: Record<string, unknown>): CardSummary {
  const capabilities = objectOf(card['capabilities']);
  const skills = arrayOf(card['skills']).flatMap((raw, i): SkillInfo[] => {
    const skill = objectOf(raw);
    const name = stringOf(skill['name']) ?? stringOf(skill['id']);
    if (!name) return [];
    return [
      {
        id: stringOf(skill['id']) ?? `skill-${i + 1}`,
        name,
        description: stringOf(skill['description']) ?? name,
        tags: strings(skill['tags']) ?? [],
        ...optional('examples', strings(skill['examples'])),
        ...optional('inputModes', strings(skill['inputModes'])),
        ...optional('outputModes', strings(skill['outputModes'])),
        extended: false,
      },
    ];
  });
  const extensions = arrayOf(capabilities['extensions']).flatMap((raw) => {
    const ext = objectOf(raw);
    const uri = stringOf(ext['uri']);
    const description = stringOf(ext['description']);
    return uri ? [{ uri, required: ext['required'] === true, ...(description && { description }) }] : [];
  });
  const schemes = objectOf(card['securitySchemes']);
  return {
    name: stringOf(card['name']) ?? 'Recorded agent',
    description: stringOf(card['description']) ?? '',
    ...optional('version', stringOf(card['version'])),
    skills,
    streaming: capabilities['streaming'] === true,
    pushNotifications: capabilities['pushNotifications'] === true,
    extensions,
    ...optional('defaultInputModes', strings(card['defaultInputModes'])),
    ...optional('defaultOutputModes', strings(card['defaultOutputModes'])),
    ...(Object.keys(schemes).length > 0 && { securitySchemes: schemes as JsonObject }),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function objectOf(value: unknown): Record<string, JsonValue> {
  return isRecord(value) ? (value as Record<string, JsonValue>) : {};
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  const list = arrayOf(value).filter((v): v is string => typeof v === 'string');
  return list.length ? list : undefined;
}
