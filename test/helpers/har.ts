/**
 * Checks a HAR document against the HAR 1.2 JSON Schema (`har-schema`'s draft-06 schemas, one per
 * part, compiled with ajv), so a test asserts what HAR readers would accept.
 * @example expect(harProblems(JSON.parse(text))).toEqual([]);
 */
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (validate) return validate;
  // The schemas use keywords HAR's authors meant as notes (`optional`, `min`): not strict.
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)));
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  ajv.addFormat('ipv4', /^(\d{1,3}\.){3}\d{1,3}$/);
  ajv.addFormat('ipv6', /^[0-9a-f:]+$/i);
  const schemas = require('har-schema') as Record<string, { $id: string }>;
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return (validate = ajv.getSchema('har.json#')!);
}

/** Each way `har` breaks the HAR 1.2 schema, as `path message`; none for a valid document. */
export function harProblems(har: unknown): string[] {
  const check = validator();
  return check(har) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}
