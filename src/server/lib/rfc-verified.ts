// Where an account's RFC proof is kept (clients.rfc_verified_at / _by) and the reads the gates use. Other
// parts call these: SAT sync marks an RFC proved when SAT accepts it; company invitations and the import of
// someone else's CFDI by UUID refuse an unproved one (the request gate: http/own-account.ts).
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { RfcVerifiedBy } from '../../domain/rfc-verification';
import type { Db } from '../db/client';
import { clients } from '../db/schema';

/** Records the proof (the latest one wins). `rfc`: only while the account still names that RFC. */
export async function markRfcVerified(db: Db, clientId: number, rfc: string, by: RfcVerifiedBy, now: Date): Promise<void> {
  await db.update(clients).set({ rfcVerifiedAt: now, rfcVerifiedBy: by }).where(and(eq(clients.id, clientId), eq(clients.rfc, rfc)));
}

/** The same, for a proof that comes again and again (each sync SAT accepts): keeps the first one. */
export async function markRfcVerifiedOnce(db: Db, clientId: number, rfc: string, by: RfcVerifiedBy, now: Date): Promise<void> {
  await db.update(clients).set({ rfcVerifiedAt: now, rfcVerifiedBy: by }).where(and(eq(clients.id, clientId), eq(clients.rfc, rfc), isNull(clients.rfcVerifiedAt)));
}

export async function isRfcVerified(db: Db, clientId: number): Promise<boolean> {
  const [row] = await db.select({ at: clients.rfcVerifiedAt }).from(clients).where(eq(clients.id, clientId)).limit(1);
  return row?.at != null;
}

/** Of these accounts, the ids whose RFC is proved. */
export async function verifiedAmong(db: Db, clientIds: readonly number[]): Promise<Set<number>> {
  if (clientIds.length === 0) return new Set();
  const rows = await db.select({ id: clients.id }).from(clients).where(and(inArray(clients.id, [...clientIds]), isNotNull(clients.rfcVerifiedAt)));
  return new Set(rows.map((r) => r.id));
}
