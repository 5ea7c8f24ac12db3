// The OAuth flow's steps (src/domain/oauth.ts): request token → user authorises one RFC → access token →
// profile reads. Every token and verifier is single use and stored hashed; each step is one guarded UPDATE,
// so two racing calls cannot both succeed.
import { and, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { OAUTH_REQUEST_TTL_MINUTES, type OAuthApplicationView, type OAuthGrant, type OAuthProfile } from '../../domain/oauth';
import { sharedProfile } from '../lib/account-view';
import type { Db } from '../db/client';
import { clients, users } from '../db/schema';
import { oauthApplications, oauthGrants, oauthRequests } from '../db/schema-company';
import type { OAuthAppRow } from './applications';
import { looksLikeSecret, newAccessToken, newSecret, sha256Hex } from './secrets';

const TTL_MS = OAUTH_REQUEST_TTL_MINUTES * 60_000;

/** Step 1: a fresh request token for the app. */
export async function createRequestToken(db: Db, app: OAuthAppRow, now: Date): Promise<string> {
  const token = newSecret();
  await db.insert(oauthRequests).values({
    tokenHash: sha256Hex(token),
    applicationId: app.id,
    expiresAt: new Date(now.getTime() + TTL_MS),
    createdAt: now,
  });
  return token;
}

/** A request still waiting for the user: known, not authorised, not used, not expired. */
const pending = (hash: string, now: Date) =>
  and(eq(oauthRequests.tokenHash, hash), isNull(oauthRequests.authorizedAt), isNull(oauthRequests.usedAt), gt(oauthRequests.expiresAt, now));

/** Step 2a: what the authorisation screen shows; null = unknown, used or expired. */
export async function pendingApplication(db: Db, token: unknown, now: Date): Promise<OAuthApplicationView | null> {
  if (!looksLikeSecret(token)) return null;
  const [row] = await db
    .select({
      name: oauthApplications.name,
      description: oauthApplications.description,
      icon: oauthApplications.icon,
      website: oauthApplications.website,
      callback_url: oauthApplications.callbackUrl,
    })
    .from(oauthRequests)
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthRequests.applicationId))
    .where(pending(sha256Hex(token), now))
    .limit(1);
  return row ?? null;
}

export type AuthorizeResult = { kind: 'ok'; redirectUrl: string } | { kind: 'invalid-token' } | { kind: 'not-your-rfc' };

/** Step 2b: the signed-in user authorises one of their RFCs; the answer is where the browser goes. */
export async function authorizeRequest(db: Db, userId: number, token: unknown, rfc: unknown, now: Date): Promise<AuthorizeResult> {
  if (!looksLikeSecret(token)) return { kind: 'invalid-token' };
  const hash = sha256Hex(token);
  const [app] = await db
    .select({ callbackUrl: oauthApplications.callbackUrl })
    .from(oauthRequests)
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthRequests.applicationId))
    .where(pending(hash, now))
    .limit(1);
  if (!app) return { kind: 'invalid-token' };
  if (typeof rfc !== 'string' || rfc.length > 13) return { kind: 'not-your-rfc' };
  const [account] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.userId, userId), eq(clients.rfc, rfc.trim().toUpperCase())))
    .orderBy(clients.id)
    .limit(1);
  if (!account) return { kind: 'not-your-rfc' };
  const verifier = newSecret();
  const done = await db
    .update(oauthRequests)
    .set({ userId, clientId: account.id, verifierHash: sha256Hex(verifier), authorizedAt: now })
    .where(pending(hash, now))
    .returning({ hash: oauthRequests.tokenHash });
  if (done.length === 0) return { kind: 'invalid-token' };
  const url = new URL(app.callbackUrl);
  url.searchParams.set('oauth_token', token);
  url.searchParams.set('oauth_verifier', verifier);
  return { kind: 'ok', redirectUrl: url.toString() };
}

/** Step 3: the app trades an authorised request (token + verifier) for an access token; single use. */
export async function exchangeForAccessToken(db: Db, app: OAuthAppRow, token: unknown, verifier: unknown, now: Date): Promise<string | null> {
  if (!looksLikeSecret(token) || !looksLikeSecret(verifier)) return null;
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(oauthRequests)
      .set({ usedAt: now })
      .where(
        and(
          eq(oauthRequests.tokenHash, sha256Hex(token)),
          eq(oauthRequests.applicationId, app.id),
          eq(oauthRequests.verifierHash, sha256Hex(verifier)),
          isNotNull(oauthRequests.authorizedAt),
          isNull(oauthRequests.usedAt),
          gt(oauthRequests.expiresAt, now),
        ),
      )
      .returning({ userId: oauthRequests.userId, clientId: oauthRequests.clientId });
    if (!used || used.userId === null || used.clientId === null) return null;
    const access = newAccessToken();
    // Authorising the same app for the same RFC again replaces the earlier grant: one live token per
    // app and account, one row in the profile's list.
    await tx
      .update(oauthGrants)
      .set({ revokedAt: now })
      .where(
        and(
          eq(oauthGrants.applicationId, app.id),
          eq(oauthGrants.userId, used.userId),
          eq(oauthGrants.clientId, used.clientId),
          isNull(oauthGrants.revokedAt),
        ),
      );
    await tx.insert(oauthGrants).values({
      applicationId: app.id,
      userId: used.userId,
      clientId: used.clientId,
      tokenHash: sha256Hex(access),
      createdAt: now,
    });
    return access;
  });
}

/** Step 4: what an access token may read — that user's profile and that one account's tax data. */
export async function profileFor(db: Db, accessToken: string | undefined): Promise<OAuthProfile | null> {
  if (!accessToken || !looksLikeSecret(accessToken)) return null;
  const [row] = await db
    .select({ username: users.username, email: users.email, client: clients })
    .from(oauthGrants)
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    // The account must still be that user's (the join on both ids).
    .innerJoin(clients, and(eq(clients.id, oauthGrants.clientId), eq(clients.userId, oauthGrants.userId)))
    .where(and(eq(oauthGrants.tokenHash, sha256Hex(accessToken)), isNull(oauthGrants.revokedAt)))
    .limit(1);
  if (!row) return null;
  return sharedProfile(row, row.client);
}

/** The user's live grants, newest first (the profile's 'Aplicaciones conectadas'). */
export async function listGrants(db: Db, userId: number): Promise<OAuthGrant[]> {
  const rows = await db
    .select({
      id: oauthGrants.id,
      name: oauthApplications.name,
      icon: oauthApplications.icon,
      website: oauthApplications.website,
      rfc: clients.rfc,
      createdAt: oauthGrants.createdAt,
    })
    .from(oauthGrants)
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthGrants.applicationId))
    .innerJoin(clients, eq(clients.id, oauthGrants.clientId))
    .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id));
  return rows.map((r) => ({
    id: r.id,
    application: { name: r.name, icon: r.icon, website: r.website },
    rfc: r.rfc,
    created_at: r.createdAt.toISOString(),
  }));
}

/** Revokes one of the user's own live grants; false = no such grant (or not theirs, or already revoked). */
export async function revokeGrant(db: Db, userId: number, grantId: number, now: Date): Promise<boolean> {
  const done = await db
    .update(oauthGrants)
    .set({ revokedAt: now })
    .where(and(eq(oauthGrants.id, grantId), eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .returning({ id: oauthGrants.id });
  return done.length > 0;
}
