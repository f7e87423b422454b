/**
 * Detached JWS signatures (RFC 7515, flattened: `protected` and `signature`) with a key read from a
 * PEM file or generated at start, on node:crypto alone. The algorithm follows the key: EC P-256 is
 * ES256, Ed25519 is EdDSA, RSA is RS256. The key id is its RFC 7638 thumbprint, so the same key
 * always has the same `kid`.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';

export type JwsAlgorithm = 'ES256' | 'EdDSA' | 'RS256';

export interface JwsSigner {
  alg: JwsAlgorithm;
  kid: string;
  /** The public key as a JWK, with `kid`, `alg` and `use: "sig"`. */
  publicJwk: JsonWebKey;
  /**
   * `{protected, signature}` over `payload` with `header` (plus `alg` and `kid`) protected.
   * @example signer.sign('{"name":"Desk"}', { typ: 'JOSE', jku: 'https://desk.example/.well-known/jwks.json' })
   */
  sign(payload: string, header?: Record<string, unknown>): { protected: string; signature: string };
}

/** What `--card-signing-key` says: a PEM file's path, or `generate` for a fresh ES256 key. */
export function loadSigner(source: string): JwsSigner {
  if (source === 'generate') {
    return signerOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  }
  let pem: string;
  try {
    pem = readFileSync(source, 'utf8');
  } catch (error) {
    throw new Error(`Failed to read the card signing key ${source}: ${(error as Error).message}.`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new Error(
      `Failed to read the card signing key ${source}: ${(error as Error).message}. Give a PEM private key (EC P-256, Ed25519 or RSA).`,
    );
  }
  return signerOf(key, source);
}

export function signerOf(privateKey: KeyObject, source = 'the key'): JwsSigner {
  const alg = algorithmOf(privateKey, source);
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = thumbprint(jwk);
  const publicJwk: JsonWebKey = { ...jwk, kid, alg, use: 'sig' };
  return {
    alg,
    kid,
    publicJwk,
    sign(payload, header = {}) {
      const protectedHeader = base64url(JSON.stringify({ alg, kid, ...header }));
      const input = Buffer.from(`${protectedHeader}.${base64url(payload)}`, 'ascii');
      const signature =
        alg === 'EdDSA'
          ? sign(null, input, privateKey)
          : alg === 'ES256'
            ? sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' })
            : sign('sha256', input, privateKey);
      return { protected: protectedHeader, signature: signature.toString('base64url') };
    },
  };
}

function algorithmOf(key: KeyObject, source: string): JwsAlgorithm {
  const type = key.asymmetricKeyType;
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'rsa') return 'RS256';
  if (type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  const what = type === 'ec' ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve}` : `a ${type} key`;
  throw new Error(
    `Failed to use ${source} to sign cards: it is ${what}; give EC P-256 (ES256), Ed25519 (EdDSA) or RSA (RS256).`,
  );
}

/** RFC 7638: SHA-256 over the key's required members, in lexicographic order. */
function thumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
        : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
