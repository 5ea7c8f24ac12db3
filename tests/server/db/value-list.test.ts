// inUuids and inTexts (db/value-list.ts): a list of UUIDs as one parameter; anything else refused before SQL.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { receipts, uploads } from '../../../src/server/db/schema';
import { inTexts, inUuids, isUuid } from '../../../src/server/db/value-list';

describe('inUuids', () => {
  const dialect = new PgDialect();
  it('sends the ids as one text parameter', () => {
    const ids = [randomUUID(), randomUUID().toUpperCase()];
    const q = dialect.sqlToQuery(inUuids(uploads.id, ids));
    expect(q.sql).toBe(`"uploads"."id" = ANY(string_to_array($1, ',')::uuid[])`);
    expect(q.params).toEqual([ids.join(',')]);
  });
  it('matches nothing for no ids', () => {
    expect(dialect.sqlToQuery(inUuids(uploads.id, [])).sql).toBe('false');
  });
  it('refuses what is not a UUID (a comma would split a value in two)', () => {
    for (const bad of ['-'.repeat(36), `${randomUUID()},${randomUUID()}`, "x' OR '1'='1", '']) {
      expect(isUuid(bad)).toBe(false);
      expect(() => inUuids(uploads.id, [randomUUID(), bad])).toThrow(/uuid no válido/);
    }
  });
});

describe('inTexts', () => {
  const dialect = new PgDialect();
  it('sends any text list as one JSON parameter, commas and quotes included', () => {
    const values = ['A,B', "x' OR '1'='1", 'ñ'];
    const q = dialect.sqlToQuery(inTexts(receipts.uuid, values));
    expect(q.sql).toBe(`"receipts"."uuid" = ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))`);
    expect(q.params).toEqual([JSON.stringify(values)]);
    expect(dialect.sqlToQuery(inTexts(receipts.uuid, [])).sql).toBe('false');
  });
});
