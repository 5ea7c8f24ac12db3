// Secrets at rest (a merchant's CSD password): AES-256-GCM under the server's secret. The secret is
// kept in the settings table (made once, like the ALTCHA key) unless the process is given one in
// CC_SECRET_KEY (64 hex digits), which keeps it out of the database and its backups.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { readSecretKeyHex } from '../config';
import type { Db } from '../db/client';
import { settings } from '../db/schema';

const SETTING = 'server_secret_key';
const VERSION = 'v1';
const cache = new WeakMap<Db, Promise<Buffer>>();

function configuredSecret(): Buffer | null {
  const hex = readSecretKeyHex();
  if (!hex) return null;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('CC_SECRET_KEY must be 64 hex digits (32 bytes)');
  return Buffer.from(hex, 'hex');
}

/** The 32-byte server secret: CC_SECRET_KEY, else the one kept in settings (made on first use). */
export function serverSecret(db: Db): Promise<Buffer> {
  let pending = cache.get(db);
  if (!pending) {
    pending = (async () => {
      const configured = configuredSecret();
      if (configured) return configured;
      await db.insert(settings).values({ key: SETTING, value: randomBytes(32).toString('hex') }).onConflictDoNothing();
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETTING));
      if (!row || typeof row.value !== 'string' || !/^[0-9a-f]{64}$/.test(row.value)) throw new Error('server secret missing');
      return Buffer.from(row.value, 'hex');
    })();
    pending.catch(() => cache.delete(db));
    cache.set(db, pending);
  }
  return pending;
}

/** 'v1:' + base64(iv ‖ tag ‖ ciphertext). `context` is bound as AAD so a box cannot be moved to another row. */
export function sealSecret(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
}

/** Throws when the box was made under another key or context, or was altered. */
export function openSecret(key: Buffer, box: string, context: string): string {
  const [version, body] = box.split(':');
  if (version !== VERSION || !body) throw new Error('unknown secret box format');
  const raw = Buffer.from(body, 'base64');
  if (raw.length < 28) throw new Error('secret box too short');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** The AAD of a merchant's CSD password. */
export const csdPasswordContext = (companyId: number): string => `companies.csd_password_enc:${companyId}`;
