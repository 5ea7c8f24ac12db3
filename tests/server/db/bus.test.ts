// The cross-process bus (db/bus.ts): in memory on PGlite; on PostgreSQL two independent buses (two
// "processes") hear each other, and one whose connection is cut listens again and reports the gap.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { memoryBus, pgBus, type Bus } from '../../../src/server/db/bus';
import { createDb } from '../../../src/server/db/client';
import { describePostgres, postgresUrl } from '../../tools/postgres';

function next(bus: Bus, channel: string): Promise<string> {
  return new Promise((resolve) => {
    const off = bus.subscribe(channel, (payload) => {
      off();
      resolve(payload);
    });
  });
}

describe('memory bus (PGlite)', () => {
  it('delivers to every subscriber of the channel and stops after unsubscribe', async () => {
    const database = await createDb({});
    const bus = database.bus;
    const seen: string[] = [];
    const off = bus.subscribe('cc_test', (p) => seen.push(`a:${p}`));
    const got = next(bus, 'cc_test');
    bus.publish('cc_test', '1');
    expect(await got).toBe('1');
    off();
    const again = next(bus, 'cc_test');
    bus.publish('cc_test', '2');
    expect(await again).toBe('2');
    expect(seen).toEqual(['a:1']);
    await database.close();
  });

  it('refuses a channel name that is not a plain identifier', () => {
    expect(() => memoryBus().publish('bad channel"', 'x')).toThrow(/Canal/);
  });
});

describePostgres('PostgreSQL bus (LISTEN/NOTIFY)', () => {
  const url = postgresUrl();
  it('a message published by one process reaches the other, and its own subscribers', async () => {
    const a = await createDb({ databaseUrl: url, poolMax: 2 });
    const b = await createDb({ databaseUrl: url, poolMax: 2 });
    const onB = next(b.bus, 'cc_test_cross');
    const onA = next(a.bus, 'cc_test_cross');
    await Promise.all([a.bus.ready(), b.bus.ready()]);
    a.bus.publish('cc_test_cross', 'hola');
    expect(await onB).toBe('hola');
    expect(await onA).toBe('hola');
    await a.close();
    await b.close();
  });

  it('listens again after its connection is killed, and reports the gap', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const bus = pgBus(url, { notify: (ch, p) => pool.query('SELECT pg_notify($1, $2)', [ch, p]), retryMs: 50 });
    const gap = new Promise<void>((resolve) => bus.onGap(resolve));
    const first = next(bus, 'cc_test_gap');
    await bus.ready();
    const killed = await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'SELECT 1' AND pid <> pg_backend_pid()`,
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    await gap;
    // Publish until the new connection is listening: NOTIFY before its LISTEN is lost, by design.
    let delivered = false;
    void first.then(() => (delivered = true));
    while (!delivered) {
      bus.publish('cc_test_gap', 'otra vez');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await first).toBe('otra vez');
    await bus.close();
    await pool.end();
  });
});
