// Checking a proof by e.firma: the certificate is a FIEL (not a CSD), valid now, of the account's RFC, and
// issued by a trusted SAT CA; the challenge was signed with its private key. Either the signature comes in
// (signed wherever the key lives), or the key and its password do and we sign here, in memory only.
import { readFileSync } from 'node:fs';
import { verify as verifySignature, X509Certificate } from 'node:crypto';
import { Certificate, Credential } from '@nodecfdi/credentials/node';
import { processEnv, readFielCaPaths } from '../config';
import { MSG } from '../../domain/messages';

/** Refusal with the user's Spanish message. */
export class ProofError extends Error {}

/**
 * Who may have issued the FIEL. A self-made certificate can name any RFC, so in production the issuer
 * must be one of SAT's CAs (SAT_FIEL_CA). 'any' is for the demo and tests (SAT's test FIELs and our own);
 * 'none' refuses every e.firma (production without SAT_FIEL_CA): the SAT connection still verifies.
 */
export type FielTrust = 'any' | 'none' | readonly X509Certificate[];

/**
 * SAT_FIEL_CA: comma-separated paths of SAT's CA certificates (PEM or DER). Unset: 'any' only in the
 * embedded demo (`demo`: the same rule that turns the dev tools on), 'none' in every other setup.
 */
export function fielTrustFromEnv(demo: boolean, env: NodeJS.ProcessEnv = processEnv()): FielTrust {
  const paths = readFielCaPaths(env);
  if (paths.length > 0) return paths.map((p) => new X509Certificate(readFileSync(p)));
  return demo ? 'any' : 'none';
}

const binary = (b: Uint8Array) => Buffer.from(b).toString('binary');

/** Opens the .cer and checks it may speak for `rfc` at `now`. */
export function checkFiel(cer: Uint8Array, rfc: string, now: Date, trust: FielTrust): Certificate {
  if (trust === 'none') throw new ProofError(MSG.rfcEfirmaUnavailable);
  let cert: Certificate;
  try {
    cert = new Certificate(binary(cer));
  } catch {
    throw new ProofError(MSG.efirmaInvalid);
  }
  if (!cert.satType().isFiel()) throw new ProofError(MSG.efirmaNotFiel);
  if (cert.rfc().trim().toUpperCase() !== rfc.toUpperCase()) throw new ProofError(MSG.efirmaWrongRfc);
  const t = now.getTime();
  if (t < cert.validFrom().getTime() || t > cert.validTo().getTime()) throw new ProofError(MSG.efirmaExpired);
  if (trust !== 'any') {
    const leaf = new X509Certificate(cert.pem());
    if (!trust.some((ca) => leaf.checkIssued(ca) && leaf.verify(ca.publicKey))) throw new ProofError(MSG.rfcIssuerUnknown);
  }
  return cert;
}

/** The challenge's signature (SHA-256 with RSA over its bytes) checks against the certificate's key. */
export function signatureMatches(cert: Certificate, challenge: string, signature: Uint8Array): boolean {
  try {
    return verifySignature('sha256', Buffer.from(challenge, 'utf8'), cert.pem(), signature);
  } catch {
    return false;
  }
}

/** Opens the key with its password (never kept), signs the challenge with it and answers the signature. */
export function signWithKey(cer: Uint8Array, key: Uint8Array, password: string, challenge: string): Uint8Array {
  let credential: Credential;
  try {
    credential = Credential.create(binary(cer), binary(key), password);
  } catch {
    throw new ProofError(MSG.efirmaInvalid);
  }
  return Buffer.from(credential.sign(challenge, 'sha256'), 'binary');
}
