/**
 * Signed agent cards (§8.4): a JWS over the card's RFC 8785 form without `signatures`, in the
 * card's `signatures` list, its key published as a JWKS beside the card. The protected header
 * names the key by `kid` and where to fetch it by `jku`, not by an embedded `jwk`: a key that
 * travels inside the signature proves nothing, since a forger would embed their own; the JWKS is
 * served from the agent's own origin, which the client already chose to trust (§8.4.3 step 2).
 *
 * Chaos can spoil the signature of a card as it is served (`card-signature=invalid|missing|wrong-key`).
 */
import { generateKeyPairSync } from 'node:crypto';
import { canonicalJson } from '../lib/jcs.js';
import { signerOf, type JwsSigner } from '../lib/jws.js';
import type { CardSignatureFault } from '../domain/card-signature.js';

type Card = Record<string, unknown>;

/** The path of the JWKS under each agent's base, beside its card. */
export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * Repeated fields the proto marks REQUIRED: kept when empty. Any other empty list is a default
 * value, which §8.4.1 leaves out of what is signed; the signed card leaves it out too, so a
 * verifier that strips defaults and one that does not canonicalize the same bytes.
 */
const REQUIRED_LISTS: ReadonlySet<string> = new Set([
  'supportedInterfaces',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
  'tags',
]);

export function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (value === null || typeof value !== 'object') return value;
  const out: Card = {};
  for (const [key, member] of Object.entries(value as Card)) {
    if (Array.isArray(member) && member.length === 0 && !REQUIRED_LISTS.has(key)) continue;
    out[key] = withoutDefaults(member);
  }
  return out;
}

/** The card with its signature, as §8.4.2 builds it; `jku` is the JWKS URL of the agent. */
export function signCard(card: Card, signer: JwsSigner, jku: string): Card {
  const { signatures: _ignored, ...content } = withoutDefaults(card) as Card;
  const signature = signer.sign(canonicalJson(content), { typ: 'JOSE', jku });
  return { ...content, signatures: [signature] };
}

/** A key no JWKS of this simulator publishes: made once, when a card is first forged with it. */
let strangerKey: JwsSigner | undefined;

/**
 * What a card becomes under a `card-signature` fault, after it was signed: its content changed
 * under the signature (`invalid`), its signatures taken off (`missing`), or signed again by a key
 * the JWKS does not hold, under the real key's `kid` (`wrong-key`).
 */
export function tamperCard(signed: Card, fault: CardSignatureFault, jku: string, kid: string): Card {
  const { signatures: _ignored, ...content } = signed;
  switch (fault) {
    case 'missing':
      return content;
    case 'invalid':
      return { ...signed, description: `${String(signed['description'] ?? '')} (altered after signing)` };
    case 'wrong-key': {
      strangerKey ??= signerOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
      return {
        ...content,
        signatures: [strangerKey.sign(canonicalJson(content), { typ: 'JOSE', jku, kid })],
      };
    }
  }
}

/** The JWKS an agent publishes: its one signing key. */
export function jwksOf(signer: JwsSigner): { keys: unknown[] } {
  return { keys: [signer.publicJwk] };
}
