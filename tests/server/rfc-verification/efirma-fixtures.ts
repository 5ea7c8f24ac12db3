// The test e.firmas (tests/fixtures/efirma/README.md) and how a client signs a challenge with one.
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIEL_PASSWORD = '12345678a';
const file = (name: string) => new Uint8Array(readFileSync(fileURLToPath(new URL(`../../fixtures/efirma/${name}`, import.meta.url))));
const pair = (base: string) => ({ cer: file(`${base}.cer`), key: file(`${base}.key`) });

export const FIELS = {
  /** Self-signed FIEL of the persona física XIQB891116QE4. */
  persona: pair('XIQB891116QE4.fiel'),
  /** SAT's test FIEL of EKU9003173C9: another RFC. */
  otherRfc: pair('EKU9003173C9.fiel'),
  /** SAT's test CSD of XIQB891116QE4: a sello, not an e.firma. */
  csd: pair('XIQB891116QE4.csd'),
  /** SAT's old test FIEL of AAA010101AAA, expired in 2021. */
  expired: pair('FIEL_AAA010101AAA.fiel'),
  /** A FIEL of XIQB891116QE4 issued by the test CA. */
  caIssued: pair('XIQB891116QE4.ca-issued.fiel'),
  testCa: file('test-ca.cer'),
};

/** What a client with the key does: SHA-256 with RSA over the challenge's bytes, base64. */
export function signChallenge(key: Uint8Array, challenge: string, password = FIEL_PASSWORD): string {
  const pk = createPrivateKey({ key: Buffer.from(key), format: 'der', type: 'pkcs8', passphrase: password });
  return sign('sha256', Buffer.from(challenge, 'utf8'), pk).toString('base64');
}

export function proofForm(parts: { cer?: Uint8Array; key?: Uint8Array; password?: string; challenge?: string; signature?: string }): FormData {
  const form = new FormData();
  if (parts.cer) form.set('cer', new Blob([new Uint8Array(parts.cer)]), 'fiel.cer');
  if (parts.key) form.set('key', new Blob([new Uint8Array(parts.key)]), 'fiel.key');
  if (parts.password !== undefined) form.set('password', parts.password);
  if (parts.challenge !== undefined) form.set('challenge', parts.challenge);
  if (parts.signature !== undefined) form.set('signature', parts.signature);
  return form;
}
