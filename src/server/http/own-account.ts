// The tax account a request names by RFC, when it is the caller's: tickets and analytics look it up alike.
import { and, eq } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { normalizeRfc } from '../../domain/rfc';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
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
