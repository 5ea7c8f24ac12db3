// The statuses stream's cursor (in the import benchmark its looks were the import's most frequent query).
// A look reads the rows changed since a little before the previous one (updated_at, through the
// (user_id, updated_at) index); of those, it only needs the row versions the previous look could not
// see. PostgreSQL says which: a row version written by a transaction not visible to a snapshot has an
// xmin at or after that snapshot's xmin (the oldest transaction then still running). So each look first
// notes the current snapshot's xmin, and the next look keeps only rows with xmin at or after it — exact
// across commit order, and wrap-safe because it compares ages (distances back from now), not raw xids.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { uploads } from '../db/schema';

const XID_SPAN = 2n ** 32n;

/** The current snapshot's xmin as a 32-bit xid (text): taken BEFORE a look, it bounds the next one. */
export async function snapshotXmin(db: Db): Promise<string> {
  const [row] = await queryRows<{ x?: unknown }>(db, sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x`);
  const x = row?.x;
  if (typeof x !== 'string' || !/^\d+$/.test(x)) throw new Error(`instantánea sin xmin: ${String(x)}`);
  return String(BigInt(x) % XID_SPAN);
}

/** Rows of uploads written by a transaction not visible to a snapshot whose xmin was `xid`. */
export function writtenSince(xid: string): SQL {
  if (!/^\d+$/.test(xid)) throw new Error(`xid no válido: ${xid}`);
  return sql`age(${uploads}.xmin) <= age(${xid}::xid)`;
}
