// `column = ANY(list)` with the list sent as ONE parameter. Drizzle's inArray makes a parameter (and a
// chunk to build) per value: building a query with 1,000 ids took about 14 ms of the event loop, these
// about 1 ms, and the import and its statuses stream pass lists of hundreds at a time.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` is written as a UUID (any version): what a uuid column accepts. */
export const isUuid = (s: string): boolean => UUID.test(s);

/** The rows whose `column` is one of `ids` (UUIDs; anything else is an error, never SQL). Empty: none. */
export function inUuids(column: AnyPgColumn, ids: readonly string[]): SQL {
  if (ids.length === 0) return sql`false`;
  for (const id of ids) if (!UUID.test(id)) throw new Error(`uuid no válido: ${id.slice(0, 40)}`);
  return sql`${column} = ANY(string_to_array(${ids.join(',')}, ',')::uuid[])`;
}

/** The rows whose text `column` is one of `values` (any text: they travel as one JSON array). Empty: none. */
export function inTexts(column: AnyPgColumn, values: readonly string[]): SQL {
  if (values.length === 0) return sql`false`;
  return sql`${column} = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
}
