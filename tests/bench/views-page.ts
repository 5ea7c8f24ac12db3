// Bundled by tests/bench/views.ts (esbuild, IIFE) and run in the app's own origin before the app:
// seeds the app's IndexedDB with the app's schema (src/offline/db.ts) and times, inside the page,
// (1) the annual view from a year change (or the menu click) until its charts and numbers are drawn,
// (2) 'Exportar' from the click until the CSV is handed to the browser. Exposes window.ccViews.
import { newId } from '../../src/domain/ids';
import { MANUAL_COMPANY_SHORT_NAME, TICKET_TYPE, ticketMonth, type Receipt } from '../../src/domain/ticket';
import { EXPENSE_CATEGORIES } from '../../src/domain/categories';
import { db, type TicketRow } from '../../src/offline/db';

export interface Timing {
  /** From the user's action to the DOM showing the result. */
  domMs: number;
  /** The same, to the next frame (what the user sees). */
  frameMs: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `total` selectable tickets of one month: half manual entries, half invoiced ones with a receipt. */
async function seedSelectable(o: { rfc: string; month: string; total: number; chunk: number; username: string }): Promise<number> {
  const [y, m] = o.month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  let buffer: TicketRow[] = [];
  for (let i = 0; i < o.total; i++) {
    const at = `${y}-${pad(m)}-${pad(1 + (i % days))}T${pad(8 + (i % 12))}:${pad(i % 60)}:00-06:00`;
    const invoiced = i % 2 === 1;
    const category = EXPENSE_CATEGORIES[i % EXPENSE_CATEGORIES.length]!;
    const receipt: Receipt | null = invoiced
      ? {
          receipt_id: newId(), rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: o.rfc, emission_date: at.slice(0, 19),
          uuid: crypto.randomUUID().toUpperCase(), imp_tras: ((i % 300) + 0.16).toFixed(2), imp_ret: '0.00', metodo_pago: 'PUE', numctapago: '',
        }
      : null;
    buffer.push({
      ticket_id: newId(),
      ticket_type_id: TICKET_TYPE.expense,
      ticket_status_name: invoiced ? 'facturado' : 'no facturable',
      received_at: at,
      company_short_name: MANUAL_COMPANY_SHORT_NAME,
      ticket_number: invoiced ? String(100000 + i) : '',
      amount: (10 + (i % 4990) + (i % 100) / 100).toFixed(2),
      tags: [{ tag_id: category.id, tag_name: category.meta_tag }],
      income_meta_tag_id: null,
      // Some notes look like formulas: the export neutralises them (real work, as for a user).
      note: i % 10 === 0 ? `=SUMA(${i}) café` : `Exportación ${i}, "comillas" y acentos`,
      include_ticket_image: false,
      ticket_image_text: '',
      user_area: '',
      username: o.username,
      receipt,
      rfc: o.rfc,
      currency: 'MXN',
      original_amount: null,
      month: ticketMonth(at),
      syncState: 'synced',
      pendingOps: 0,
      syncedAt: Date.now(),
    });
    if (buffer.length === o.chunk) {
      await db.tickets.bulkPut(buffer);
      buffer = [];
    }
  }
  if (buffer.length > 0) await db.tickets.bulkPut(buffer);
  return db.tickets.where('[rfc+month]').equals([o.rfc, o.month]).count();
}

/**
 * Times from the next `trigger` event (the year select's change, or a click on the menu link) until
 * the annual view shows `year` with its line chart drawn and the side panel's Ingresos reading `income`.
 */
function armAnnual(year: number, income: string, trigger: 'change' | 'click'): Promise<Timing> {
  return new Promise((resolve, reject) => {
    let t0: number | null = null;
    const done = () =>
      document.querySelector('.annual h1')?.textContent === `Vista Anual ${year}` &&
      document.querySelector('.annual__chart svg[role="img"]') !== null &&
      document.querySelector('.annual__side dd')?.textContent === income;
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`annual ${year} not drawn within 30 s (expected Ingresos ${income})`));
    }, 30_000);
    const observer = new MutationObserver(() => {
      if (t0 === null || !done()) return;
      const domMs = performance.now() - t0;
      const start = t0;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => setTimeout(() => resolve({ domMs, frameMs: performance.now() - start }), 0));
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    document.addEventListener(trigger, () => {
      t0 = performance.now();
    }, { capture: true, once: true });
  });
}

/** Times from the next click on 'Exportar' until the CSV file is handed to the browser (<a download>.click()). */
function armExport(): Promise<Timing & { name: string }> {
  return new Promise((resolve, reject) => {
    let t0: number | null = null;
    const original = HTMLAnchorElement.prototype.click;
    const onClick = (e: Event) => {
      const button = (e.target as Element | null)?.closest('button');
      if (button?.textContent?.includes('Exportar')) t0 = performance.now();
    };
    const restore = () => {
      HTMLAnchorElement.prototype.click = original;
      document.removeEventListener('click', onClick, { capture: true });
    };
    const timer = setTimeout(() => {
      restore();
      reject(new Error('no download within 30 s'));
    }, 30_000);
    HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
      if (t0 !== null && this.download) {
        const domMs = performance.now() - t0;
        const start = t0;
        const name = this.download;
        restore();
        clearTimeout(timer);
        requestAnimationFrame(() => setTimeout(() => resolve({ domMs, frameMs: performance.now() - start, name }), 0));
      }
      original.call(this);
    };
    document.addEventListener('click', onClick, { capture: true });
  });
}

let pendingAnnual: Promise<Timing> | null = null;
let pendingExport: Promise<Timing & { name: string }> | null = null;

const views = {
  seedSelectable,
  /** Tickets of one account's year in Dexie. */
  countYear(rfc: string, year: number): Promise<number> {
    return db.tickets.where('[rfc+month]').between([rfc, `${year}-01`], [rfc, `${year}-12`], true, true).count();
  },
  armAnnual(year: number, income: string, trigger: 'change' | 'click'): void {
    pendingAnnual = armAnnual(year, income, trigger);
    pendingAnnual.catch(() => undefined);
  },
  annualResult(): Promise<Timing> {
    if (!pendingAnnual) return Promise.reject(new Error('armAnnual first'));
    return pendingAnnual;
  },
  armExport(): void {
    pendingExport = armExport();
    pendingExport.catch(() => undefined);
  },
  exportResult(): Promise<Timing & { name: string }> {
    if (!pendingExport) return Promise.reject(new Error('armExport first'));
    return pendingExport;
  },
};

(globalThis as unknown as { ccViews: unknown }).ccViews = views;

export type CcViews = typeof views;
