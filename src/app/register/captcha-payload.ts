// The ALTCHA payload create_user carries: base64 of JSON {algorithm, challenge, number, salt, signature}.
import type { AltchaChallenge } from '../api/endpoints';

export function encodeCaptchaPayload(challenge: AltchaChallenge, number: number): string {
  const json = JSON.stringify({
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number,
    salt: challenge.salt,
    signature: challenge.signature,
  });
  // btoa takes Latin-1 only: go through UTF-8 bytes so any character survives.
  let binary = '';
  for (const byte of new TextEncoder().encode(json)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
