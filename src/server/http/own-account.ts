// Gates on the tax account a request names: the caller's own (tickets, analytics), one that proved its RFC (company).
import { and, eq } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { normalizeRfc } from '../../domain/rfc';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { isRfcVerified } from '../lib/rfc-verified';
import { fail } from './errors';

/** The caller's tax account with that RFC; another user's RFC is indistinguishable from an unknown one. */
export async function ownClientId(db: Db, userId: number, rfc: string): Promise<number> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.userId, userId), eq(clients.rfc, normalizeRfc(rfc))));
  if (!row) throw fail(404, MSG.notFound);
  return row.id;
}

/** 403 with `message` (which says how to verify) unless the account proved its RFC. */
export async function requireRfcVerified(db: Db, clientId: number, message: string): Promise<void> {
  if (!(await isRfcVerified(db, clientId))) throw fail(403, message);
}
