// Opaque secrets (session and reset tokens): 32 random bytes, base64url; only their SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A cheap shape check before touching the database. */
export function looksLikeToken(token: string): boolean {
  return token.length >= 20 && token.length <= 128 && /^[A-Za-z0-9_-]+$/.test(token);
}
