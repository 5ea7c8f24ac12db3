// Shared by the invoicing tests: the harness's database with an app whose invoice queue only records
// request ids (the tests run each request's job by hand with processInvoiceRequest, or start the real
// pg-boss worker), a real SMTP test server as the mailer, merchant tickets written straight to the
// table, and users with a complete tax account.
import { eq } from 'drizzle-orm';
import { createApp } from '../../../src/server/app';
import { checkCfdi40 } from '../../../src/server/cfdi/rules';
import { SandboxPac } from '../../../src/server/cfdi/sandbox-pac';
import type { PacPort } from '../../../src/server/cfdi/pac';
import { DEMO_RFCS } from '../../../src/server/db/demo-accounts';
import { clients, invoiceRequests, merchantTickets, type MerchantTicketItem } from '../../../src/server/db/schema';
import { newId } from '../../../src/domain/ids';
import { smtpMailer } from '../../../src/server/mail/mailer';
import { ticketAmounts, newTicketRef } from '../../../src/server/merchants/merchant-tickets';
import { processInvoiceRequest, type InvoiceDeps } from '../../../src/server/invoicing/process';
import type { InvoiceQueue } from '../../../src/server/invoicing/queue';
import { merchantSide } from '../../../src/server/wiring';
import { createHarness, freshIp, type CallOptions, type DriverName, type Harness } from '../helpers/harness';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

/** Copexa: Folio (text, 8+), Fecha, Importe. */
export const COPEXA = { id: 4, folio: 401, fecha: 402, importe: 403 } as const;
/** Autozone (multi): label, Número de ticket (integer, 6+), Sucursal (select), Fecha, Importe. */
export const AUTOZONE = { id: 3, number: 302, venue: 303, fecha: 304, importe: 305 } as const;
export const MOVIL_NORTE = 70;
/** The demo's persona account (seed), as a receiver with its postal code and regime. */
export const BERENICE = DEMO_RFCS.persona;

export interface InvoicingEnv {
  h: Harness;
  smtp: TestSmtp;
  pac: SandboxPac;
  deps: InvoiceDeps;
  /** Request ids handed to the queue, in order. */
  queued: string[];
  call(method: string, path: string, opts?: CallOptions): Promise<{ status: number; json: any; text: string; headers: Headers }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelopes
  /** Runs every queued request's job once (as the worker would). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export async function invoicingEnv(driver: DriverName, opts: { pac?: PacPort } = {}): Promise<InvoicingEnv> {
  const h = await createHarness(driver);
  const smtp = await startSmtp();
  const mailer = smtpMailer(smtp.url);
  const pac = new SandboxPac();
  // Every invoice these tests issue must pass SAT's CFDI 4.0 rules too (besides the XSD and the cadena
  // the tests check): the process refuses a finding before stamping, and this makes a slip loud.
  const stamp = pac.stamp.bind(pac);
  pac.stamp = async (xml) => {
    const findings = checkCfdi40(xml, { now: new Date(), beforeStamping: true });
    if (findings.length > 0) throw new Error(`issued CFDI breaks SAT's rules: ${findings.map((f) => f.code).join(' ')}`);
    return stamp(xml);
  };
  const deps: InvoiceDeps = { db: h.database.db, files: h.files, mailer, pac: opts.pac ?? pac, clock: () => new Date(), merchants: merchantSide };
  const queued: string[] = [];
  const invoicing: InvoiceQueue = { enqueue: async (id) => void queued.push(id) };
  const app = createApp({ db: h.database.db, files: h.files, mailer, invoicing, listen: h.database.listen, config: { trustProxy: true } });
  const call: InvoicingEnv['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { 'x-forwarded-for': o.ip ?? freshIp(), ...o.headers };
    if (o.token) headers['x-access-token'] = o.token;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers };
  };
  return {
    h, smtp, pac, deps, queued, call,
    drain: async () => {
      for (const id of queued.splice(0)) await processInvoiceRequest(deps, id);
    },
    close: async () => {
      await smtp.close();
      await h.close();
    },
  };
}

/** A signed-up user with one complete tax account (postal code and regime filled in). */
export async function requester(env: InvoicingEnv, account: Partial<typeof clients.$inferInsert> = {}) {
  const u = await env.h.signUp('fact');
  const [row] = await env.h.database.db.insert(clients).values({ userId: u.userId, ...BERENICE, ...account }).returning();
  return { ...u, clientId: row!.id, rfc: row!.rfc };
}

export interface TicketSpec {
  companyId: number;
  ticketNumber: string;
  issuedAt: Date;
  items?: MerchantTicketItem[];
  formaPago?: string;
  venue?: string;
  checkCode?: string;
  postalCode?: string;
}

export const ITEMS: MerchantTicketItem[] = [
  { description: 'Cuaderno profesional', quantity: '3', unit_price: '45.50', clave_prod_serv: '14111514', clave_unidad: 'H87', iva: 'IVA16' },
  { description: 'Libro de texto', quantity: '1', unit_price: '320.00', clave_prod_serv: '55101500', clave_unidad: 'H87', iva: 'IVA0' },
];

/** A merchant ticket written straight to the table, priced by the merchant module's own rules. */
export async function merchantTicket(env: InvoicingEnv, t: TicketSpec) {
  const items = t.items ?? ITEMS;
  const amounts = ticketAmounts(items);
  const [row] = await env.h.database.db.insert(merchantTickets).values({
    id: newId(), companyId: t.companyId, ref: newTicketRef(), ticketNumber: t.ticketNumber, venue: t.venue ?? '',
    postalCode: t.postalCode ?? '44100', issuedAt: t.issuedAt, items, ...amounts, formaPago: t.formaPago ?? '04', checkCode: t.checkCode ?? 'CHK123',
  }).returning();
  return row!;
}

/** yyyy/mm/dd of a date in Mexico City. */
export function mxDate(d: Date): string {
  const p = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  return p.replace(/-/g, '/');
}

/** The Copexa form values for a ticket. */
export function copexaValues(t: { ticketNumber: string; issuedAt: Date; total: string }) {
  return [
    { form_configuration_id: COPEXA.folio, value: t.ticketNumber },
    { form_configuration_id: COPEXA.fecha, value: mxDate(t.issuedAt) },
    { form_configuration_id: COPEXA.importe, value: t.total },
  ];
}

/** Móvil Norte's form (label, Referencia de pago, Fecha de pago, Monto pagado): every field shows on both forms. */
export const MOVIL_NORTE_FIELDS = { referencia: 7002, fecha: 7003, monto: 7004 } as const;

/** The Móvil Norte form values for a ticket (what verify asks, and refacturar shows again). */
export function movilNorteValues(t: { ticketNumber: string; issuedAt: Date; total: string }) {
  return [
    { form_configuration_id: MOVIL_NORTE_FIELDS.referencia, value: t.ticketNumber },
    { form_configuration_id: MOVIL_NORTE_FIELDS.fecha, value: mxDate(t.issuedAt) },
    { form_configuration_id: MOVIL_NORTE_FIELDS.monto, value: t.total },
  ];
}

export async function requestRow(env: InvoicingEnv, id: string) {
  const [row] = await env.h.database.db.select().from(invoiceRequests).where(eq(invoiceRequests.id, id));
  return row!;
}

/** A random Copexa folio (8+ characters). */
export const folio = () => `F${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
