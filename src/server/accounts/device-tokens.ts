// Known-device tokens (OWASP "device cookies"): a successful sign-in hands the browser a long-lived,
// HMAC-signed token naming the user. A later sign-in of that user carrying it is throttled on the
// token's own bucket instead of the account's and the address's, so a stranger hammering the account
// (or sharing the owner's address) locks out only strangers. The token grants nothing by itself: the
// password is still checked, and a stolen one still allows only MAX_FAILURES_PER_DEVICE guesses.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_TOKEN_TTL_MS = 365 * 86_400_000;
const VERSION = 'd1';

function sign(key: string, body: string): string {
  return createHmac('sha256', key).update(`device-token|${body}`).digest('base64url');
}

export function issueDeviceToken(key: string, userId: number, now: Date): string {
  const expires = Math.floor((now.getTime() + DEVICE_TOKEN_TTL_MS) / 1000);
  const body = `${VERSION}.${userId}.${expires}.${randomBytes(16).toString('base64url')}`;
  return `${body}.${sign(key, body)}`;
}

/** The token's nonce when it is ours, unexpired and made for `userId`; otherwise null. */
export function readDeviceToken(key: string, token: string | undefined, userId: number, now: Date): string | null {
  if (!token || token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) return null;
  const [, user, expires, nonce, mac] = parts as [string, string, string, string, string];
  const expected = Buffer.from(sign(key, parts.slice(0, 4).join('.')));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (user !== String(userId)) return null;
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now.getTime()) return null;
  return nonce;
}
