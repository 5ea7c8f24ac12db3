// The world the security suite probes: the app as createApp builds it (with recording queues, so uploads
// and invoice requests are accepted), user A with one of everything the API keeps per user, user B with
// accounts of their own (so B's 404s are not just "B has nothing"), and the strings that would give A's
// data away if they showed up in an answer to B. Everything is made with the calls the API tests use.
import { eq } from 'drizzle-orm';
import { v7 } from 'uuid';
import { createApp } from '../../src/server/app';
import { SandboxPac } from '../../src/server/cfdi/sandbox-pac';
import { DEMO_RFCS } from '../../src/server/db/demo-accounts';
import { clients, invoiceRequests } from '../../src/server/db/schema';
import { processInvoiceRequest } from '../../src/server/invoicing/process';
import type { Mailer, MailMessage } from '../../src/server/mail/mailer';
import { registerApplication } from '../../src/server/oauth/applications';
import { mexicoCityToday } from '../../src/domain/mexico-time';
import { provideSatSync } from '../../src/server/sat-sync/runtime';
import { DEMO_SAT_CIECS, seedSatPortal, SimulatedSatPortal } from '../../src/server/sat-sync/simulated-portal';
import { demoMerchants, merchantSide } from '../../src/server/wiring';
import { collaboratorBody, tokenFromText } from '../server/company/helpers';
import { activeCollaborator, insertTicket, personRfc } from '../server/company-view/helpers';
import { createHarness, freshIp, type ApiResult, type DriverName, type Harness } from '../server/helpers/harness';
import { COPEXA, copexaValues, folio, merchantTicket, mxDate, type InvoicingEnv } from '../server/invoicing/invoicing-helpers';
import { tinyPdf } from '../server/receipts/receipt-fixtures';
import { createEntry, pngOfSize, spending, uploadImage, type Owner } from '../server/tickets/ticket-fixtures';

export const PERSONA = DEMO_RFCS.persona.rfc;
const OAUTH_CALLBACK = 'https://app.example.mx/cc/callback';
/** What app.request() gets from @hono/node-server: a peer on this machine (the proxy; X-Forwarded-For names the client). */
export const SOCKET = { incoming: { socket: { remoteAddress: '127.0.0.1', remoteFamily: 'IPv4' } } };

export interface Request {
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  /** Sent as multipart/form-data instead of JSON. */
  form?: FormData;
  headers?: Record<string, string>;
}

/** User A's ids: what B must never reach. */
export interface Ids {
  userId: number;
  token: string;
  email: string;
  username: string;
  personRfc: string;
  personClientId: number;
  companyRfc: string;
  companyClientId: number;
  /** A manual spending with an image. */
  ticketId: string;
  /** The ticket of the invoice A asked for at a merchant (stamped, with its receipt). */
  invoiceTicketId: string;
  /** The merchant's printed ticket behind it: its ref, check code and total. */
  invoiceTicket: { ref: string; checkCode: string; total: string };
  invoiceMonth: { year: number; month: number };
  requestId: string;
  /** The invoice's SAT QR data besides the UUID: issuer RFC and total. */
  invoiceIssuerRfc: string;
  invoiceTotal: string;
  receiptId: string;
  uuid: string;
  uploadId: string;
  conversationId: string;
  messageId: string;
  areaId: number;
  collaboratorId: number;
  collaboratorTicketId: string;
  invitationToken: string;
  eventId: number;
  grantId: number;
}

export interface World {
  h: Harness;
  app: ReturnType<typeof createApp>;
  call(req: Request): Promise<ApiResult>;
  a: Ids;
  /** B's own ids: where a route takes a scope (user, company) and an id inside it, B's scope with A's id. */
  b: { userId: number; token: string; personRfc: string; personClientId: number; companyRfc: string; companyClientId: number; areaId: number };
  /** A second session of A's, for the suite to sign out through the logout route it finds. */
  spareToken: string;
  /** A pending OAuth request token of a registered app (no user has authorised it). */
  oauthRequestToken: string;
  /** Strings that are A's alone: none may appear in an answer to B. */
  markers: Record<string, string>;
  mail: MailMessage[];
  close(): Promise<void>;
}

async function expectOk(what: string, r: ApiResult | Promise<ApiResult>): Promise<ApiResult> {
  const res = await r;
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res;
}

export async function buildWorld(driver: DriverName): Promise<World> {
  const mail: MailMessage[] = [];
  const mailer: Mailer = {
    send: async (m) => {
      mail.push(m);
      return { rejected: [] };
    },
  };
  const h = await createHarness(driver, {}, { mailer });
  const db = h.database.db;
  const queuedInvoices: string[] = [];
  const app = createApp({
    db,
    files: h.files,
    mailer,
    listen: h.database.listen,
    imports: { enqueue: async () => undefined },
    invoicing: { enqueue: async (id) => void queuedInvoices.push(id) },
    config: { trustProxy: true, captchaMaxNumber: 2_000 },
  });

  const call = async (req: Request): Promise<ApiResult> => {
    const headers: Record<string, string> = { 'x-forwarded-for': freshIp(), ...req.headers };
    let body: BodyInit | undefined;
    if (req.form) body = req.form;
    else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    if (req.token) headers['x-access-token'] = req.token;
    const res = await app.request(req.path, { method: req.method, headers, body }, SOCKET);
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // files and pages: callers read `text`
    }
    return { status: res.status, headers: res.headers, json, text };
  };
  // The API tests' helpers, pointed at this app.
  const hx: Harness = { ...h, app, call: (method, path, opts = {}) => call({ method, path, token: opts.token, body: opts.body, headers: opts.headers }) };
  const now = new Date();
  const year = now.getUTCFullYear();

  // ── A: a person account (the demo persona, complete for invoicing, on a plan with SAT sync) ──
  const ua = await h.signUp('ana');
  const person = await expectOk('A new_client', call({ method: 'POST', path: '/new_client', token: ua.token, body: { client: { rfc: PERSONA, first_name: 'BERENICE', last_name: 'XIMO QUEZADA' } } }));
  const personClientId = person.json.response.diverza_client_id as number;
  await db.update(clients).set({ planId: 2, zipCode: DEMO_RFCS.persona.zipCode, taxRegime: DEMO_RFCS.persona.taxRegime, rfcVerifiedAt: now, rfcVerifiedBy: 'sat' }).where(eq(clients.id, personClientId));
  const owner: Owner = { token: ua.token, userId: ua.userId, rfc: PERSONA };

  // A manual spending with a distinctive amount and note, and its image.
  const entry = await createEntry(hx, owner, spending({ amount: '48213.77', note: 'nota-secreta-de-ana', date: `${year}/01/15` }));
  if (entry.status !== 200) throw new Error(`A ticket_create: ${entry.text}`);
  const img = await uploadImage(hx, ua.token, entry.id, pngOfSize(2_000));
  if (img.status !== 204) throw new Error(`A attach_image: ${img.text}`);

  // An invoice asked at a merchant and stamped by the sandbox PAC: a receipt with its UUID, XML and PDF.
  const issuedAt = new Date(now.getTime() - 2 * 86_400_000);
  const mt = await merchantTicket({ h } as InvoicingEnv, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt });
  const asked = await expectOk('A invoice', call({ method: 'POST', path: '/form/ticket_create?format=json', token: ua.token, body: { usuario: { rfc: PERSONA }, company: { id: COPEXA.id }, ticket: copexaValues(mt), additional_info: {} } }));
  const requestId = asked.json.response.request_id as string;
  const invoiceTicketId = asked.json.response.ticket.ticket_id as string;
  // The printed PDF is a stand-in (the renderer has its own tests and a worker that is slow to start).
  await h.files.put(`invoices/${requestId}/cfdi.pdf`, tinyPdf(requestId));
  await db.update(invoiceRequests).set({ pdfKey: `invoices/${requestId}/cfdi.pdf` }).where(eq(invoiceRequests.id, requestId));
  for (const id of queuedInvoices.splice(0)) await processInvoiceRequest({ db, files: h.files, mailer, pac: new SandboxPac(), clock: () => new Date(), merchants: merchantSide }, id);
  const ymd = mxDate(issuedAt);
  const invoiceMonth = { year: Number(ymd.slice(0, 4)), month: Number(ymd.slice(5, 7)) };
  const month = await expectOk('A month', call({ method: 'GET', path: `/api/v2/tickets?usuario[rfc_owner]=${PERSONA}&date[year]=${invoiceMonth.year}&date[month]=${invoiceMonth.month}`, token: ua.token }));
  const invoiced = (month.json.response.tickets as { ticket_id: string; receipt: { receipt_id: string; uuid: string; rfc_issuer: string } | null }[]).find((t) => t.ticket_id === invoiceTicketId);
  if (!invoiced?.receipt) throw new Error(`A's invoice has no receipt: ${JSON.stringify(invoiced)}`);

  // An upload of 'Importar CFDIs'.
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode('<?xml version="1.0"?><nada/>')]), 'carga-secreta-de-ana.xml');
  const up = await expectOk('A upload', call({ method: 'POST', path: `/api/v3/users/${ua.userId}/files`, token: ua.token, form }));
  const uploadId = up.json.response.files[0].id as string;

  // A support chat conversation.
  const messageId = v7();
  const chat = await expectOk('A chat', call({ method: 'POST', path: '/api/v3/chat/messages', token: ua.token, body: { id: messageId, body: 'mensaje-secreto-de-ana' } }));
  const conversationId = chat.json.response.conversation.id as string;

  // A SAT connection (CIEC accepted by the simulated portal).
  await seedSatPortal(db);
  provideSatSync(db, { portal: new SimulatedSatPortal(db, () => new Date(), demoMerchants), queue: { enqueue: async () => null } });
  await expectOk('A SAT', call({ method: 'PUT', path: `/api/v3/users/${ua.userId}/branches/${PERSONA}.json`, token: ua.token, body: { sat_password: DEMO_SAT_CIECS[PERSONA] } }));

  // ── A's company: every company feature (Viáticos by plan, Colaboradores and Gastos by subscription) ──
  const companyRfc = 'ABC010101AB1';
  const company = await expectOk('A company', call({ method: 'POST', path: '/new_client', token: ua.token, body: { client: { rfc: companyRfc, name: 'Abarrotes Secretos SA' }, ubication_data: { street: 'Av. Juárez', external_number: '10', city: 'Puebla', state: 'Puebla', zip_code: '72000' } } }));
  const companyClientId = company.json.response.diverza_client_id as number;
  await db.update(clients).set({ planId: 6, subscriptionId: 4, rfcVerifiedAt: now, rfcVerifiedBy: 'efirma' }).where(eq(clients.id, companyClientId));
  const area = await expectOk('A area', call({ method: 'POST', path: `/api/v3/clients/${companyClientId}/areas.json`, token: ua.token, body: { area: 'area-secreta-de-ana' } }));
  const areaId = (area.json.response as { id: number; area: string }[]).find((x) => x.area.toLowerCase() === 'area-secreta-de-ana')!.id;
  const colab = await activeCollaborator(hx, companyClientId, areaId, personRfc());
  const collaboratorTicketId = await insertTicket(h, colab, { amount: '7777.41', receivedAt: issuedAt.toISOString() });
  const invited = mail.length;
  await expectOk('A invitation', call({ method: 'POST', path: `/api/v3/clients/${companyClientId}/collaborators.json`, token: ua.token, body: collaboratorBody(areaId, { email: 'invitada-secreta@example.com' }) }));
  const invitationMail = mail.slice(invited).find((m) => m.to === 'invitada-secreta@example.com');
  if (!invitationMail) throw new Error('A invitation: no e-mail');
  const invitationToken = tokenFromText(invitationMail.text);
  const today = mexicoCityToday(now);
  const event = await expectOk('A per diem', call({ method: 'POST', path: `/api/v3/clients/${companyClientId}/per_diem_events.json`, token: ua.token, body: { per_diem_event: { event_name: 'evento-secreto-de-ana', start_date: today, end_date: today, area_id: null, collaborator_id: null, deposit: '5000', notes: '' } } }));
  const eventId = event.json.response.id as number;

  // ── A's OAuth grant to a third-party app, and a request token nobody has authorised yet ──
  const oauthApp = await registerApplication(db, { name: 'Contabilízate', description: 'Tu contabilidad.', icon: 'https://app.example.mx/icon.png', website: 'https://app.example.mx', callbackUrl: OAUTH_CALLBACK });
  const requestToken = async () =>
    (await expectOk('request_token', call({ method: 'POST', path: '/oauth/request_token.json', body: { client_id: oauthApp.clientId, client_secret: oauthApp.secret, callback_url: OAUTH_CALLBACK } }))).json.response.oauth_token as string;
  const authorized = await expectOk('A authorize', call({ method: 'POST', path: '/oauth/authorize.json', token: ua.token, body: { oauth_token: await requestToken(), rfc: PERSONA } }));
  const redirect = new URL(authorized.json.response.redirect_url as string);
  await expectOk('A access_token', call({ method: 'POST', path: '/oauth/access_token.json', body: { client_id: oauthApp.clientId, client_secret: oauthApp.secret, oauth_token: redirect.searchParams.get('oauth_token'), oauth_verifier: redirect.searchParams.get('oauth_verifier') } }));
  const grants = await expectOk('A grants', call({ method: 'GET', path: `/api/v3/users/${ua.userId}/oauth_grants.json`, token: ua.token }));
  const grantId = grants.json.response[0].id as number;
  const oauthRequestToken = await requestToken();

  // ── A's second session (the suite signs it out) ──
  const again = await expectOk('A login', call({ method: 'POST', path: '/api/v2/login', body: { user: { login: ua.username, password: ua.password } } }));
  const spareToken = again.json.response.token as string;

  // ── B: accounts of their own, the company on the same plan as A's ──
  const ub = await h.signUp('beto');
  const bPersonRfc = 'GODE561231GR8';
  const bPerson = await expectOk('B new_client', call({ method: 'POST', path: '/new_client', token: ub.token, body: { client: { rfc: bPersonRfc, first_name: 'Beto', last_name: 'Intruso' } } }));
  const bCompanyRfc = 'XYZ020202AB1';
  const bCompany = await expectOk('B company', call({ method: 'POST', path: '/new_client', token: ub.token, body: { client: { rfc: bCompanyRfc, name: 'Intrusos SA' }, ubication_data: { street: 'Reforma', external_number: '1', city: 'CDMX', state: 'CDMX', zip_code: '06600' } } }));
  const bCompanyClientId = bCompany.json.response.diverza_client_id as number;
  await db.update(clients).set({ planId: 6, subscriptionId: 4, rfcVerifiedAt: now, rfcVerifiedBy: 'efirma' }).where(eq(clients.id, bCompanyClientId));
  const bArea = await expectOk('B area', call({ method: 'POST', path: `/api/v3/clients/${bCompanyClientId}/areas.json`, token: ub.token, body: { area: 'compras' } }));
  const bAreaId = (bArea.json.response as { id: number; area: string }[]).find((x) => x.area.toLowerCase() === 'compras')!.id;
  await expectOk('B chat', call({ method: 'POST', path: '/api/v3/chat/messages', token: ub.token, body: { id: v7(), body: 'hola, soy Beto' } }));

  const a: Ids = {
    userId: ua.userId, token: ua.token, email: ua.email, username: ua.username,
    personRfc: PERSONA, personClientId, companyRfc, companyClientId,
    ticketId: entry.id, invoiceTicketId, invoiceTicket: { ref: mt.ref, checkCode: mt.checkCode, total: mt.total }, invoiceMonth, requestId, invoiceIssuerRfc: invoiced.receipt.rfc_issuer, invoiceTotal: mt.total,
    receiptId: invoiced.receipt.receipt_id, uuid: invoiced.receipt.uuid, uploadId,
    conversationId, messageId, areaId, collaboratorId: colab.collaboratorId, collaboratorTicketId,
    invitationToken, eventId, grantId,
  };
  const markers: Record<string, string> = {
    personRfc: PERSONA, companyRfc, email: ua.email, username: ua.username,
    ticketId: a.ticketId, invoiceTicketId, requestId, receiptId: a.receiptId, uuid: a.uuid, uploadId,
    uploadName: 'carga-secreta-de-ana', amount: '48213.77', note: 'nota-secreta-de-ana',
    conversationId, messageId, message: 'mensaje-secreto-de-ana', area: 'area-secreta-de-ana', event: 'evento-secreto-de-ana',
    companyName: 'Abarrotes Secretos', collaboratorRfc: colab.rfc, collaboratorUser: colab.username, collaboratorTicketId, collaboratorAmount: '7777.41',
    invitedEmail: 'invitada-secreta@example.com', invitationToken,
  };
  return {
    h, app, call, a, mail, spareToken, oauthRequestToken, markers,
    b: { userId: ub.userId, token: ub.token, personRfc: bPersonRfc, personClientId: bPerson.json.response.diverza_client_id as number, companyRfc: bCompanyRfc, companyClientId: bCompanyClientId, areaId: bAreaId },
    close: () => h.close(),
  };
}
