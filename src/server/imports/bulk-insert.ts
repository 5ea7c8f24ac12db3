// Many rows in one INSERT with ONE parameter: the rows travel as a jsonb array and PostgreSQL spreads
// them with jsonb_populate_recordset. Building a statement of 100 rows × 20 columns = 2,000 bound
// parameters cost more than the insert itself (the import's hot path, in the import benchmark); this costs a
// JSON.stringify. Only the columns the rows carry are listed, so the others keep their defaults.
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/** Rows per statement: keeps one statement's JSON to a few hundred kB. */
const CHUNK = 500;

/**
 * Inserts `rows` (drizzle insert shapes of `table`) with ON CONFLICT DO NOTHING when asked; answers the
 * ids inserted (the table must have a text/uuid `id` column). A column that some rows carry and others
 * lack is NULL in the latter (not its default): give every row the same keys unless NULL is meant.
 */
export async function bulkInsert<T extends PgTable>(
  db: Db,
  table: T,
  rows: readonly T['$inferInsert'][],
  opts: { onConflictDoNothing?: boolean } = {},
): Promise<Set<string>> {
  const inserted = new Set<string>();
  if (rows.length === 0) return inserted;
  const columns = getTableColumns(table) as Record<string, { name: string; defaultFn?: () => unknown; mapToDriverValue(v: unknown): unknown }>;
  // Columns with a default made in JS ($defaultFn) get it here, as drizzle's insert would.
  const keys = Object.keys(columns).filter((k) => columns[k]!.defaultFn || rows.some((r) => (r as Record<string, unknown>)[k] !== undefined));
  const names = keys.map((k) => sql.identifier(columns[k]!.name));
  const list = sql.join(names, sql`, `);
  const tableName = sql.identifier(getTableName(table));
  for (let i = 0; i < rows.length; i += CHUNK) {
    const json = rows.slice(i, i + CHUNK).map((r) => {
      const o: Record<string, unknown> = {};
      for (const k of keys) {
        const given = (r as Record<string, unknown>)[k];
        const v = given === undefined ? columns[k]!.defaultFn?.() : given;
        // Dates as ISO instants; jsonb columns stay JSON values; everything else as the driver takes it.
        o[columns[k]!.name] = v === undefined || v === null ? null : v instanceof Date ? v.toISOString() : typeof v === 'object' ? v : columns[k]!.mapToDriverValue(v);
      }
      return o;
    });
    const conflict: SQL = opts.onConflictDoNothing ? sql` ON CONFLICT DO NOTHING` : sql``;
    const result = await db.execute(
      sql`INSERT INTO ${tableName} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::${tableName}, ${JSON.stringify(json)}::jsonb)${conflict} RETURNING id`,
    );
    for (const r of rowsOf<{ id: unknown }>(result)) inserted.add(String(r.id));
  }
  return inserted;
}

/** db.execute answers rows directly (node-postgres's result has .rows; PGlite's too). */
function rowsOf<R>(result: unknown): R[] {
  if (Array.isArray(result)) return result as R[];
  return ((result as { rows?: R[] }).rows ?? []) as R[];
}
