// An account's SAT connection at rest (table sat_connections): secrets sealed under the server secret
// with the row's own context, opened only by the sync job; and the sync page's status view of it.
import { eq } from 'drizzle-orm';
import type { SatMethod, SatSyncStatus } from '../../domain/sat-sync';
import type { Db } from '../db/client';
import { clients, satConnections } from '../db/schema';
import { openSecret, sealSecret, serverSecret } from '../lib/secret-box';
import type { EfirmaFacts, SatCredentials } from './port';

export const ciecContext = (clientId: number) => `sat:ciec:${clientId}`;
export const efirmaPasswordContext = (clientId: number) => `sat:efirma:${clientId}`;

type ConnectionRow = typeof satConnections.$inferSelect;

export async function connectionOf(db: Db, clientId: number): Promise<ConnectionRow | null> {
  const [row] = await db.select().from(satConnections).where(eq(satConnections.clientId, clientId));
  return row ?? null;
}

/** Saves the CIEC (sealed) and makes it the method; an e.firma kept from before stays for later. */
export async function saveCiec(db: Db, clientId: number, ciec: string, now: Date): Promise<void> {
  const ciecEnc = sealSecret(await serverSecret(db), ciec, ciecContext(clientId));
  await db.transaction(async (tx) => {
    await tx
      .insert(satConnections)
      .values({ clientId, method: 'ciec', ciecEnc, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: satConnections.clientId, set: { method: 'ciec', ciecEnc, lastError: null, updatedAt: now } });
    await tx.update(clients).set({ ciec: true }).where(eq(clients.id, clientId));
  });
}

/** Saves the e.firma (.cer and .key as base64, the password sealed) and makes it the method. */
export async function saveEfirma(db: Db, clientId: number, cer: Uint8Array, key: Uint8Array, password: string, facts: EfirmaFacts, now: Date): Promise<void> {
  const set = {
    method: 'efirma',
    efirmaCer: Buffer.from(cer).toString('base64'),
    efirmaKey: Buffer.from(key).toString('base64'),
    efirmaPasswordEnc: sealSecret(await serverSecret(db), password, efirmaPasswordContext(clientId)),
    certSerial: facts.serial,
    certValidUntil: facts.validUntil,
    lastError: null,
    updatedAt: now,
  };
  await db.insert(satConnections).values({ clientId, ...set, createdAt: now }).onConflictDoUpdate({ target: satConnections.clientId, set });
}

/** Disconnects: every secret erased, the account's ciec flag cleared. */
export async function disconnect(db: Db, clientId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(satConnections).where(eq(satConnections.clientId, clientId));
    await tx.update(clients).set({ ciec: false }).where(eq(clients.id, clientId));
  });
}

/** Opens what the portal needs for this connection (only the job calls this). */
export async function credentialsOf(db: Db, row: ConnectionRow, rfc: string): Promise<SatCredentials> {
  const secret = await serverSecret(db);
  if (row.method === 'efirma') {
    if (!row.efirmaCer || !row.efirmaKey || !row.efirmaPasswordEnc) throw new Error('sat_connections: e.firma incompleta');
    return {
      method: 'efirma',
      rfc,
      cer: Buffer.from(row.efirmaCer, 'base64'),
      key: Buffer.from(row.efirmaKey, 'base64'),
      password: openSecret(secret, row.efirmaPasswordEnc, efirmaPasswordContext(row.clientId)),
    };
  }
  if (!row.ciecEnc) throw new Error('sat_connections: CIEC faltante');
  return { method: 'ciec', rfc, ciec: openSecret(secret, row.ciecEnc, ciecContext(row.clientId)) };
}

/** GET …/sync: the connection as the sync page shows it; no secret ever leaves here. */
export async function syncStatus(db: Db, client: { id: number; rfc: string; synchronizedAt: Date | null }, methods: readonly SatMethod[]): Promise<SatSyncStatus> {
  const row = await connectionOf(db, client.id);
  return {
    rfc: client.rfc,
    method: row ? (row.method as SatMethod) : null,
    methods: [...methods],
    efirma: row?.certSerial && row.certValidUntil && row.efirmaCer ? { serial: row.certSerial, valid_until: row.certValidUntil.toISOString() } : null,
    synchronized_at: client.synchronizedAt ? client.synchronizedAt.toISOString() : null,
    last_imported: row?.lastImported ?? null,
    last_error: row?.lastError ?? null,
    running: row?.running ?? false,
  };
}
