// Registered third-party apps (spec §3 OAuth application): the operator registers them (register-app.ts);
// the client_id is public, the secret is shown once and stored as SHA-256 only.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { oauthApplications } from '../db/schema-company';
import { newClientId, newSecret, secretMatches, sha256Hex } from './secrets';

export type OAuthAppRow = typeof oauthApplications.$inferSelect;

export interface NewApplication {
  name: string;
  description?: string;
  icon?: string;
  website?: string;
  callbackUrl: string;
}

/** An absolute http(s) URL without a fragment (the redirect appends its query to it). */
export function validCallbackUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.hash && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** Registers an app; the secret in the answer is the only time it is seen. */
export async function registerApplication(db: Db, app: NewApplication): Promise<{ id: number; clientId: string; secret: string }> {
  const name = app.name.trim();
  if (!name) throw new Error('El nombre de la aplicación es requerido.');
  if (!validCallbackUrl(app.callbackUrl)) throw new Error('La URL de retorno debe ser una URL http(s) absoluta, sin #fragmento.');
  const clientId = newClientId();
  const secret = newSecret();
  const [row] = await db
    .insert(oauthApplications)
    .values({
      clientId,
      secretHash: sha256Hex(secret),
      name,
      description: (app.description ?? '').trim(),
      icon: (app.icon ?? '').trim(),
      website: (app.website ?? '').trim(),
      callbackUrl: app.callbackUrl,
    })
    .returning({ id: oauthApplications.id });
  return { id: row!.id, clientId, secret };
}

/** The app whose client_id and secret both match, else null (the secret compared in constant time). */
export async function authenticateApplication(db: Db, clientId: unknown, secret: unknown): Promise<OAuthAppRow | null> {
  if (typeof clientId !== 'string' || typeof secret !== 'string' || clientId.length > 100 || secret.length > 200) return null;
  const [row] = await db.select().from(oauthApplications).where(eq(oauthApplications.clientId, clientId)).limit(1);
  if (!row) {
    secretMatches(secret, sha256Hex('')); // same work whether or not the client_id exists
    return null;
  }
  return secretMatches(secret, row.secretHash) ? row : null;
}
