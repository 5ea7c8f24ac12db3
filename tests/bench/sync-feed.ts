// The incremental sync benchmark, run by run.ts (`npm run bench -- --only sync-feed`): the real pullMonth
// (src/offline/pull.ts) on fake-indexeddb against the real API in this process, for one account's month
// of 2,000 tickets: a first load (the feed's cursor, then the whole month), a sync of the unchanged month
// (one feed request), a sync after one ticket changed, and a sync with nothing new while a local edit
// waits (the server changed that ticket and 99 others while the edit was queued; the first sync after that
// took them). Bytes are the response bodies the phone downloads; ms is the whole pull (request, JSON, Dexie
// writes).
import 'fake-indexeddb/auto';
import { eq, inArray } from 'drizzle-orm';
import { v7 } from 'uuid';
import { MANUAL_COMPANY_ID, TICKET_TYPE } from '../../src/domain/ticket';
import { createDb as createDeviceDb } from '../../src/offline/db';
import { createHttp } from '../../src/offline/http';
import { setTicketNote } from '../../src/offline/operations/ticket-update';
import { pullMonth, type PullResult } from '../../src/offline/pull';
import { createApp } from '../../src/server/app';
import { DEMO_USER } from '../../src/server/db/demo-accounts';
import { tickets } from '../../src/server/db/schema';
import { memoryFileStore } from '../../src/server/files/file-store';
import { devMailboxMailer } from '../../src/server/mail/mailer';
import { demoAccount, openBenchDatabase } from './bench-database';
import { sized } from './scale';

const RFC = 'SYNC850101AB1';
const MONTH = { year: 2026, month: 9 };
const TICKETS = sized(2_000, 20);
const RUNS = sized(3, 1);

export interface SyncFeedBenchDeps {
  report: (key: string, value: string | number) => void;
  median: (values: number[]) => number;
}

const local = { incoming: { socket: { remoteAddress: '127.0.0.1', remoteFamily: 'IPv4' } } };

export async function syncFeedSection(deps: SyncFeedBenchDeps): Promise<void> {
  const { database, drop, driver } = await openBenchDatabase();
  try {
    const { userId, clientId } = await demoAccount(database, RFC, 'SINCRONIZACION SA DE CV');
    const db = database.db;
    const start = Date.UTC(MONTH.year, MONTH.month - 1, 2, 12);
    const rows = Array.from({ length: TICKETS }, (_, i) => {
      const at = new Date(start + (i % 27) * 86_400_000 + i * 1000);
      return {
        id: v7({ msecs: at.getTime() }), userId, clientId, type: TICKET_TYPE.expense, statusId: 3,
        companyId: MANUAL_COMPANY_ID, amount: (100 + (i % 900)).toFixed(2), receivedAt: at, metaTagId: 1 + (i % 23), note: `Ticket ${i}`,
      };
    });
    for (let i = 0; i < rows.length; i += 500) await db.insert(tickets).values(rows.slice(i, i + 500));

    const app = createApp({ db, files: memoryFileStore(), mailer: devMailboxMailer(db), clock: () => new Date(), listen: database.listen, config: {} });
    const login = await app.request('/api/v2/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { login: DEMO_USER.username, password: DEMO_USER.password } }) }, local);
    const token = ((await login.json()) as { response?: { token?: string } }).response?.token;
    if (!token) throw new Error(`login ${login.status}`);

    let bytes = 0;
    let requests = 0;
    const http = createHttp({
      getToken: () => token,
      baseUrl: 'http://bench.local',
      fetch: async (req) => {
        const res = await app.request(req, undefined, local);
        const body = await res.arrayBuffer();
        bytes += body.byteLength;
        requests++;
        return new Response(body, { status: res.status, headers: res.headers });
      },
    });
    const measure = async (name: string, fresh: boolean, before?: () => Promise<void>) => {
      const ms: number[] = [];
      let last: { bytes: number; requests: number; result: PullResult } | null = null;
      for (let run = 0; run < RUNS; run++) {
        await before?.();
        const device = createDeviceDb(`bench-sync-${fresh ? run : 0}`);
        bytes = 0;
        requests = 0;
        const t0 = performance.now();
        const result = await pullMonth(device, http, RFC, MONTH.year, MONTH.month);
        ms.push(performance.now() - t0);
        last = { bytes, requests, result };
        device.close();
      }
      deps.report(`${name}-ms`, Math.round(deps.median(ms) * 10) / 10);
      deps.report(`${name}-bytes`, last!.bytes);
      deps.report(`${name}-requests`, last!.requests);
      return last!;
    };

    deps.report('sync-feed-database', driver);
    // Each first-load run loads a fresh device; the other cases reuse the first one (its cursor and month).
    const first = await measure(`sync-first-load-${TICKETS}`, true);
    if (first.result.received !== TICKETS) throw new Error(`first load received ${first.result.received}`);
    const same = await measure('sync-unchanged', false);
    if (same.requests !== 1 || same.result.written !== 0) throw new Error(`unchanged month: ${same.requests} requests, ${same.result.written} writes`);
    let n = 0;
    const one = await measure('sync-one-change', false, async () => {
      await db.update(tickets).set({ note: `Cambio ${++n}` }).where(eq(tickets.id, rows[n % rows.length]!.id));
    });
    if (one.result.written !== 1) throw new Error(`one change wrote ${one.result.written}`);

    // An edit waits in the outbox (offline, or refused and not yet decided on) while the server changes
    // its ticket and 99 others; one sync takes those 99. Later syncs have nothing new to download.
    const device = createDeviceDb('bench-sync-0');
    await setTicketNote(device, rows[0]!.id, 'Edición en espera');
    device.close();
    const changed = rows.slice(0, Math.min(100, rows.length)).map((r) => r.id);
    await db.update(tickets).set({ note: 'Cambio en el servidor' }).where(inArray(tickets.id, changed));
    const catchUp = createDeviceDb('bench-sync-0');
    const took = await pullMonth(catchUp, http, RFC, MONTH.year, MONTH.month);
    catchUp.close();
    if (took.written !== changed.length - 1) throw new Error(`the sync after the server's changes wrote ${took.written}`);
    const waiting = await measure('sync-edit-waiting-unchanged', false);
    if (waiting.result.written !== 0) throw new Error(`nothing new, yet ${waiting.result.written} writes`);
  } finally {
    await drop();
  }
}
