// Tax accounts ("clients"): create and edit under the spec §5 tax-data rules, only ever the caller's own.
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Account } from '../../domain/account';
import type { EditClientBody, NewClientBody } from '../../domain/client-schemas';
import { MSG } from '../../domain/messages';
import { checkTaxData, checkTaxDataUpdate, type TaxData } from '../../domain/registration';
import { normalizeRfc, RFC_COMPANY_LENGTH, RFC_FOREIGN, type PersonType } from '../../domain/rfc';
import { FREE_PLAN_ID } from '../../domain/plans';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { fail } from '../http/errors';
import { toAccount, withPaymentHistory } from '../lib/account-view';

export function personTypeForRfc(rfc: string): PersonType {
  if (rfc === RFC_FOREIGN) return 'extranjero';
  return rfc.length === RFC_COMPANY_LENGTH ? 'empresa' : 'persona';
}

const clean = (s: string | undefined | null) => (s ?? '').trim();
const orNull = (s: string) => (s ? s : null);

interface Names {
  rfc: string;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  residenciaFiscal: string | null;
  numRegIdTrib: string | null;
  /** Only when given (absent = leave as stored). */
  zipCode?: string;
  taxRegime?: string;
}

/** Checks the tax data (type from the RFC's shape) and returns the columns to store. */
function checkedNames(mode: 'create' | 'update', input: {
  rfc: string;
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  residencia_fiscal?: string | null;
  num_reg_id_trib?: string | null;
  zip_code?: string | null;
  regimen_fiscal?: string | null;
}): Names {
  const rfc = normalizeRfc(input.rfc);
  const type = personTypeForRfc(rfc);
  const t: TaxData = {
    type,
    rfc,
    name: clean(input.name),
    firstName: clean(input.first_name),
    lastName: clean(input.last_name),
    country: clean(input.residencia_fiscal).toUpperCase(),
    taxId: clean(input.num_reg_id_trib),
    postalCode: clean(input.zip_code),
    taxRegime: clean(input.regimen_fiscal),
  };
  // Only the extranjero tab fixes its RFC; elsewhere the generic foreign RFC is just an invalid one.
  // An edit that sends a código postal must send a valid one; leaving it out keeps the stored one.
  const problem = mode === 'update' ? checkTaxDataUpdate({ ...t, postalCode: input.zip_code == null ? undefined : t.postalCode }) : checkTaxData(t);
  if (problem) throw fail(400, problem);
  return {
    rfc,
    name: type === 'persona' ? null : orNull(t.name ?? ''),
    firstName: type === 'persona' ? orNull(t.firstName ?? '') : null,
    lastName: type === 'persona' ? orNull(t.lastName ?? '') : null,
    residenciaFiscal: type === 'extranjero' ? orNull(t.country ?? '') : null,
    numRegIdTrib: type === 'extranjero' ? orNull(t.taxId ?? '') : null,
    ...(input.zip_code != null ? { zipCode: t.postalCode ?? '' } : {}),
    ...(input.regimen_fiscal != null ? { taxRegime: t.taxRegime ?? '' } : {}),
  };
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

// GET /user_clients is the hottest read: a prepared statement per database skips rebuilding the query.
const listStatements = new WeakMap<Db, ReturnType<typeof prepareList>>();
const prepareList = (db: Db) =>
  db
    .select()
    .from(clients)
    .where(eq(clients.userId, sql.placeholder('userId')))
    .orderBy(asc(clients.id))
    .prepare('list_accounts');

export async function listAccounts(db: Db, userId: number): Promise<Account[]> {
  let stmt = listStatements.get(db);
  if (!stmt) listStatements.set(db, (stmt = prepareList(db)));
  const rows = await stmt.execute({ userId });
  return withPaymentHistory(db, rows.map(toAccount));
}

export async function createClient(db: Db, userId: number, body: NewClientBody): Promise<Account> {
  const u = body.ubication_data ?? {};
  const names = checkedNames('create', {
    ...body.client,
    residencia_fiscal: u.residencia_fiscal,
    num_reg_id_trib: u.num_reg_id_trib,
    zip_code: u.zip_code ?? '',
    regimen_fiscal: body.client.regimen_fiscal ?? '',
  });
  const country = clean(u.country).toUpperCase() || names.residenciaFiscal || 'MEX';
  try {
    const rows = await db
      .insert(clients)
      .values({
        userId,
        ...names,
        planId: FREE_PLAN_ID,
        street: clean(u.street),
        externalNumber: clean(u.external_number),
        internalNumber: clean(u.internal_number),
        neighborhood: clean(u.neighborhood),
        city: clean(u.city),
        state: clean(u.state),
        country,
        zipCode: names.zipCode ?? '',
      })
      .onConflictDoNothing({ target: [clients.userId, clients.rfc] })
      .returning();
    const row = rows[0];
    if (!row) throw fail(422, MSG.rfcTaken);
    return toAccount(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw fail(422, MSG.rfcTaken);
    throw err;
  }
}

export async function updateClient(db: Db, userId: number, body: EditClientBody): Promise<Account> {
  const id = body.client.diverza_client_id;
  const [own] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.id, id), eq(clients.userId, userId)))
    .limit(1);
  if (!own) throw fail(404, MSG.notFound);
  const names = checkedNames('update', {
    ...body.client,
    residencia_fiscal: own.residenciaFiscal,
    num_reg_id_trib: own.numRegIdTrib,
  });
  const [clash] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.userId, userId), eq(clients.rfc, names.rfc), ne(clients.id, id)))
    .limit(1);
  if (clash) throw fail(422, MSG.rfcTaken);
  try {
    const [row] = await db
      .update(clients)
      // A proof was for the RFC it named: another RFC starts unverified.
      .set(names.rfc === own.rfc ? names : { ...names, rfcVerifiedAt: null, rfcVerifiedBy: null })
      .where(and(eq(clients.id, id), eq(clients.userId, userId)))
      .returning();
    if (!row) throw fail(404, MSG.notFound);
    return toAccount(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw fail(422, MSG.rfcTaken);
    throw err;
  }
}
