// A merchant's issuer data (CFDI 4.0 Emisor) and its CSD, opened once per process and company.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import type { MerchantIssuer } from '../cfdi/issuer';
import { Csd } from '../cfdi/seal';
import { csdPasswordContext, openSecret, serverSecret } from '../lib/secret-box';

export type { MerchantIssuer };

const issuerColumns = {
  id: companies.id,
  shortName: companies.shortName,
  name: companies.name,
  logo: companies.logo,
  rfc: companies.rfc,
  legalName: companies.legalName,
  taxRegime: companies.taxRegime,
  postalCode: companies.postalCode,
};

export async function merchantById(db: Db, id: number): Promise<MerchantIssuer | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await db.select(issuerColumns).from(companies).where(and(eq(companies.id, id), eq(companies.kind, 'merchant')));
  return row ?? null;
}

export async function merchantByShort(db: Db, short: string): Promise<MerchantIssuer | null> {
  const [row] = await db
    .select(issuerColumns)
    .from(companies)
    .where(and(eq(companies.shortName, short), eq(companies.kind, 'merchant')));
  return row ?? null;
}

const opened = new WeakMap<Db, Map<number, Promise<Csd>>>();

/** The merchant's CSD, ready to seal; opened (password decrypted, key checked against the .cer) once. */
export function merchantCsd(db: Db, companyId: number): Promise<Csd> {
  let perDb = opened.get(db);
  if (!perDb) opened.set(db, (perDb = new Map()));
  let pending = perDb.get(companyId);
  if (!pending) {
    pending = openMerchantCsd(db, companyId);
    const map = perDb;
    pending.catch(() => map.delete(companyId));
    perDb.set(companyId, pending);
  }
  return pending;
}

/** Drops a cached CSD (after a merchant's CSD was replaced). */
export function forgetMerchantCsd(db: Db, companyId: number): void {
  opened.get(db)?.delete(companyId);
}

async function openMerchantCsd(db: Db, companyId: number): Promise<Csd> {
  const [row] = await db
    .select({ cer: companies.csdCer, key: companies.csdKey, password: companies.csdPasswordEnc })
    .from(companies)
    .where(and(eq(companies.id, companyId), eq(companies.kind, 'merchant')));
  if (!row?.cer || !row.key || !row.password) throw new Error(`merchant ${companyId} has no CSD`);
  const password = openSecret(await serverSecret(db), row.password, csdPasswordContext(companyId));
  return Csd.open(Buffer.from(row.cer, 'base64'), Buffer.from(row.key, 'base64'), password);
}
