// The OAuth flow's secrets (ASVS 7.2.1–7.2.3): 256 random bits each, base64url; only their SHA-256 is stored,
// and presented secrets are compared with stored hashes in constant time. Access tokens carry a prefix so
// that any session endpoint can recognise — and refuse — an app's token without touching the database.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Marks an app's access token (never a session token: those are bare base64url). */
export const ACCESS_TOKEN_PREFIX = 'cco_';
/** 'cco_' + 43 base64url characters (256 bits). */
export const ACCESS_TOKEN_LENGTH = 47;
export const CLIENT_ID_PREFIX = 'ccapp_';

export const newSecret = (): string => randomBytes(32).toString('base64url');
export const newAccessToken = (): string => `${ACCESS_TOKEN_PREFIX}${newSecret()}`;
export const newClientId = (): string => `${CLIENT_ID_PREFIX}${randomBytes(12).toString('base64url')}`;

export const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** Constant-time comparison of a presented secret with a stored SHA-256 (hex). */
export function secretMatches(presented: string | undefined, storedHash: string | null | undefined): boolean {
  if (!presented || !storedHash || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(presented), 'hex'), Buffer.from(storedHash, 'hex'));
}

/** Shape check before touching the database (base64url, bounded). */
export const looksLikeSecret = (s: unknown): s is string => typeof s === 'string' && /^[A-Za-z0-9_-]{20,128}$/.test(s);
