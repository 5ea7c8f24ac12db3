// Bundled by tests/bench/offline.ts (esbuild, IIFE) and evaluated in the app's own origin, so it
// works on the app's IndexedDB with the app's real modules: the schema (src/offline/db.ts), the
// dashboard's month query, pullMonth and the offline ticket actions. Exposes window.ccBench.
import { Dexie } from 'dexie';
import { queryMonthPage } from '../../src/app/tickets/month-query';
import type { NameLookups } from '../../src/app/tickets/ticket-list-model';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../src/domain/categories';
import { newId } from '../../src/domain/ids';
import type { SpendingForm } from '../../src/domain/spending-form';
import {
  MANUAL_COMPANY_SHORT_NAME, TICKET_TYPE, isSelectable, ticketMonth, type Receipt, type TicketTag,
} from '../../src/domain/ticket';
import { db as appDbInstance, type AppDb, type CategoryRow, type TicketRow } from '../../src/offline/db';
import { createHttp } from '../../src/offline/http';
import { pullMonth, seenKey } from '../../src/offline/pull';
import { createManualTicket } from '../../src/offline/operations/ticket-create';
import { setTicketCategory, setTicketNote } from '../../src/offline/operations/ticket-update';
import { seededRandom } from '../../src/domain/seeded-random';

const appDb = (): AppDb => appDbInstance;


const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const NOTES = ['Comida con cliente', 'Despensa de la semana', 'Taxi al aeropuerto', 'Tanque lleno', 'Hojas y tóner', 'Farmacia', 'Honorarios', 'Servicio del coche'];
const COMPANIES = [MANUAL_COMPANY_SHORT_NAME, 'oxxo', 'walmart', 'pemex', 'liverpool'];
// Expense statuses with rough weights: manual entries dominate, then invoiced and pending ones.
const EXPENSE_STATUSES: [string, number][] = [
  ['no facturable', 45], ['facturado', 20], ['pendiente', 10], ['guardado', 5], ['recibido via qr', 8], ['error', 4], ['aprobado', 4], ['rechazado', 4],
];

function weighted<T>(items: [T, number][], r: number): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = r * total;
  for (const [item, w] of items) {
    x -= w;
    if (x <= 0) return item;
  }
  return items[items.length - 1]![0];
}

function receipt(rfc: string, rnd: () => number, at: string): Receipt {
  return {
    receipt_id: newId(), rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: rfc,
    emission_date: at, uuid: crypto.randomUUID(), imp_tras: (rnd() * 300).toFixed(2), imp_ret: '0.00',
    metodo_pago: 'PUE', numctapago: '',
  };
}

/** One stored ticket of `rfc` in `month` ('YYYY-MM'); `serial` makes its note unique (the render check reads it). */
function ticket(rfc: string, month: string, serial: number, rnd: () => number, username: string, syncedAt: number): TicketRow {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const at = `${y}-${pad(m)}-${pad(1 + Math.floor(rnd() * days))}T${pad(Math.floor(rnd() * 24))}:${pad(Math.floor(rnd() * 60))}:${pad(Math.floor(rnd() * 60))}-06:00`;
  const kind = rnd();
  const type = kind < 0.75 ? TICKET_TYPE.expense : kind < 0.92 ? TICKET_TYPE.income : TICKET_TYPE.incomeCfdi;
  const status = type === TICKET_TYPE.expense ? weighted(EXPENSE_STATUSES, rnd()) : type === TICKET_TYPE.income ? 'ingreso no facturable' : 'facturado';
  const manual = status === 'no facturable' || status === 'ingreso no facturable';
  const category = EXPENSE_CATEGORIES[Math.floor(rnd() * EXPENSE_CATEGORIES.length)]!;
  const tags: TicketTag[] = type === TICKET_TYPE.expense && rnd() < 0.85 ? [{ tag_id: category.id, tag_name: category.meta_tag }] : [];
  return {
    ticket_id: newId(),
    ticket_type_id: type,
    ticket_status_name: status,
    received_at: at,
    company_short_name: manual ? MANUAL_COMPANY_SHORT_NAME : COMPANIES[1 + Math.floor(rnd() * (COMPANIES.length - 1))]!,
    ticket_number: manual ? '' : String(100000 + Math.floor(rnd() * 900000)),
    amount: (10 + rnd() * 4990).toFixed(2),
    tags,
    income_meta_tag_id: type === TICKET_TYPE.income ? INCOME_CATEGORIES[Math.floor(rnd() * INCOME_CATEGORIES.length)]!.id : null,
    note: `${NOTES[Math.floor(rnd() * NOTES.length)]} n.${serial}`,
    include_ticket_image: rnd() < 0.1,
    ticket_image_text: '',
    user_area: '',
    username,
    receipt: status === 'facturado' || status === 'aprobado' ? receipt(rfc, rnd, at) : null,
    rfc,
    currency: 'MXN',
    original_amount: null,
    month: ticketMonth(at),
    syncState: 'synced',
    pendingOps: 0,
    syncedAt,
  };
}

const lookups: NameLookups = {
  companies: new Map([[MANUAL_COMPANY_SHORT_NAME, 'Registro manual']]),
  incomeCategories: new Map(INCOME_CATEGORIES.map((c) => [c.id, c.income_meta_tag])),
};

function monthRange(db: AppDb, rfc: string, month: string) {
  return db.tickets.where('[rfc+month+received_at]').between([rfc, month, Dexie.minKey], [rfc, month, Dexie.maxKey]);
}

const api = {
  /** Writes `total` tickets spread evenly over rfcs × months, `chunk` rows per bulkPut transaction. */
  async seed(o: { rfcs: string[]; months: string[]; total: number; chunk: number; seed: number; username: string }): Promise<{ ms: number; count: number }> {
    const db = appDb();
    const rnd = seededRandom(o.seed);
    const cells = o.rfcs.flatMap((rfc) => o.months.map((month) => ({ rfc, month })));
    const started = performance.now();
    const now = Date.now();
    let buffer: TicketRow[] = [];
    let serial = 0;
    for (let c = 0; c < cells.length; c++) {
      const { rfc, month } = cells[c]!;
      const n = Math.floor(((c + 1) * o.total) / cells.length) - Math.floor((c * o.total) / cells.length);
      for (let i = 0; i < n; i++) {
        buffer.push(ticket(rfc, month, serial++, rnd, o.username, now));
        if (buffer.length === o.chunk) {
          await db.tickets.bulkPut(buffer);
          buffer = [];
        }
      }
    }
    if (buffer.length > 0) await db.tickets.bulkPut(buffer);
    return { ms: performance.now() - started, count: await db.tickets.count() };
  },

  /** The dashboard's own page query (queryMonthPage: counts and the first page), timed per pick. */
  async timeMonthPage(picks: { rfc: string; month: string }[]): Promise<number[]> {
    const db = appDb();
    const times: number[] = [];
    for (const p of picks) {
      const t0 = performance.now();
      const result = await queryMonthPage(db, { rfc: p.rfc, month: p.month, search: '', page: 1 }, lookups);
      times.push(performance.now() - t0);
      if (result.rows.length === 0) throw new Error(`empty month ${p.rfc} ${p.month}`);
    }
    return times;
  },

  /** Only the first page through [rfc+month+received_at] (10 rows, newest first), timed per pick. */
  async timeFirstPage(picks: { rfc: string; month: string }[]): Promise<number[]> {
    const db = appDb();
    const times: number[] = [];
    for (const p of picks) {
      const t0 = performance.now();
      const rows = await monthRange(db, p.rfc, p.month).reverse().limit(10).toArray();
      times.push(performance.now() - t0);
      if (rows.length === 0) throw new Error(`empty month ${p.rfc} ${p.month}`);
    }
    return times;
  },

  /**
   * Where queryMonthPage's time goes, per pick: the month's count through the index, and the
   * selectable-ids pass (reads every row of the month to filter them).
   */
  async timeMonthParts(picks: { rfc: string; month: string }[]): Promise<{ count: number[]; selectable: number[] }> {
    const db = appDb();
    const count: number[] = [];
    const selectable: number[] = [];
    for (const p of picks) {
      let t0 = performance.now();
      await monthRange(db, p.rfc, p.month).count();
      count.push(performance.now() - t0);
      t0 = performance.now();
      await monthRange(db, p.rfc, p.month).reverse().and(isSelectable).primaryKeys();
      selectable.push(performance.now() - t0);
    }
    return { count, selectable };
  },

  /** One small readwrite transaction with strict and with relaxed durability, `n` times each (scratch database). */
  async durabilityProbe(n: number): Promise<{ strict: number[]; relaxed: number[] }> {
    const out = { strict: [] as number[], relaxed: [] as number[] };
    for (const mode of ['strict', 'relaxed'] as const) {
      const probe = new Dexie(`cc-bench-probe-${mode}`, { chromeTransactionDurability: mode });
      probe.version(1).stores({ rows: 'id' });
      await probe.open();
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await probe.table('rows').put({ id: i, at: Date.now() });
        out[mode].push(performance.now() - t0);
      }
      probe.close();
      await probe.delete();
    }
    return out;
  },

  /** The note of the newest ticket of a month (what the dashboard's first row shows), or null. */
  async firstNote(rfc: string, month: string): Promise<string | null> {
    const rows = await monthRange(appDb(), rfc, month).reverse().limit(1).toArray();
    return rows[0]?.note ?? null;
  },

  async monthCount(rfc: string, month: string): Promise<number> {
    return appDb().tickets.where('[rfc+month]').equals([rfc, month]).count();
  },

  /** Removes a month of an account from the device (and its "seen" mark) before a cold pull. */
  async forgetMonth(rfc: string, month: string): Promise<void> {
    const db = appDb();
    await db.tickets.where('[rfc+month]').equals([rfc, month]).delete();
    await db.meta.delete(seenKey(rfc, month));
  },

  /** The real pullMonth with the page's fetch; returns its duration. */
  async pull(rfc: string, year: number, month: number, token: string): Promise<{ ms: number; received: number; written: number }> {
    const t0 = performance.now();
    const r = await pullMonth(appDb(), createHttp({ getToken: () => token }), rfc, year, month);
    return { ms: performance.now() - t0, received: r.received, written: r.written };
  },

  /**
   * Queues operations through the app's ticket actions: `creates` manual spendings on `dates`
   * (yyyy/mm/dd, round robin), then a note on the first `notes` of them and a new category on the
   * next `tags`. Returns the created ids and what each update set.
   */
  async enqueue(o: { rfc: string; username: string; dates: string[]; creates: number; notes: number; tags: number }): Promise<{
    ids: string[]; notes: Record<string, string>; tags: Record<string, number>; ms: number; outbox: number;
  }> {
    const db = appDb();
    const categories: CategoryRow[] = EXPENSE_CATEGORIES.map((c) => ({ id: c.id, meta_tag: c.meta_tag }));
    const first = categories[0]!;
    const other = categories[1]!;
    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < o.creates; i++) {
      const form: SpendingForm = {
        kind: 'expense', amount: (10 + (i % 500) + i / 100).toFixed(2), date: o.dates[i % o.dates.length]!, category: String(first.id),
        currency: 'MXN', nationalAmount: '', note: `Replay ${i}`,
      };
      ids.push(await createManualTicket(db, form, { rfc: o.rfc, username: o.username, categories }));
    }
    const notes: Record<string, string> = {};
    for (let i = 0; i < o.notes; i++) {
      const id = ids[i % ids.length]!;
      notes[id] = `Nota editada sin conexión ${i}`;
      if (!(await setTicketNote(db, id, notes[id]))) throw new Error(`note not queued for ${id}`);
    }
    const tags: Record<string, number> = {};
    for (let i = 0; i < o.tags; i++) {
      const id = ids[(o.notes + i) % ids.length]!;
      tags[id] = other.id;
      if (!(await setTicketCategory(db, id, other.id, categories))) throw new Error(`tag not queued for ${id}`);
    }
    return { ids, notes, tags, ms: performance.now() - t0, outbox: await db.outbox.count() };
  },

  /**
   * Resolves once the outbox is empty (or only parked operations are left), timed from the next
   * `online` event; polls every 25 ms.
   */
  waitDrained(timeoutMs: number): Promise<{ ms: number; remaining: number; failed: number; timedOut: boolean }> {
    const db = appDb();
    return new Promise((resolve) => {
      addEventListener('online', () => {
        const t0 = performance.now();
        const tick = async () => {
          const remaining = await db.outbox.count();
          const failed = await db.outbox.where('status').equals('failed').count();
          const ms = performance.now() - t0;
          if (remaining === failed || ms > timeoutMs) resolve({ ms, remaining, failed, timedOut: remaining !== failed });
          else setTimeout(tick, 25);
        };
        void tick();
      }, { once: true });
    });
  },

  async outboxCount(): Promise<number> {
    return appDb().outbox.count();
  },
};

/**
 * Measures one dashboard change (month or year select): from the `change` event (capture phase,
 * before React sees it) until the first table row shows `expected` (a note), or until no ticket
 * table is shown when `expected` is null; also until the frame after that.
 */
function armRender(expected: string | null): Promise<{ domMs: number; frameMs: number }> {
  return new Promise((resolve, reject) => {
    let t0: number | null = null;
    const done = () => {
      const first = document.querySelector('table.tickets tbody tr');
      return expected === null ? document.querySelector('table.tickets') === null : !!first?.textContent?.includes(expected);
    };
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`render not seen within 20 s (expected ${expected ?? 'no table'})`));
    }, 20_000);
    const observer = new MutationObserver(() => {
      if (t0 === null || !done()) return;
      const domMs = performance.now() - t0;
      const start = t0;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => setTimeout(() => resolve({ domMs, frameMs: performance.now() - start }), 0));
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    document.addEventListener('change', () => {
      t0 = performance.now();
    }, { capture: true, once: true });
  });
}

let pendingRender: Promise<{ domMs: number; frameMs: number }> | null = null;

(globalThis as unknown as { ccBench: unknown }).ccBench = {
  ...api,
  armRender(expected: string | null): void {
    pendingRender = armRender(expected);
    pendingRender.catch(() => undefined);
  },
  renderResult(): Promise<{ domMs: number; frameMs: number }> {
    if (!pendingRender) return Promise.reject(new Error('armRender first'));
    return pendingRender;
  },
};

export type CcBench = typeof api & {
  armRender(expected: string | null): void;
  renderResult(): Promise<{ domMs: number; frameMs: number }>;
};
