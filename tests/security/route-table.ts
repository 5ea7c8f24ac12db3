// What the security suite needs to know about routes that it cannot find out by itself. The routes
// themselves come from the app (app.routes); these tables only say
//  - which routes are public on purpose (PUBLIC_ROUTES, each with its reason): any other route must
//    answer 401 without a session;
//  - how to put user A's ids into a path parameter (PARAM_FILL, by the segment before it) — a route with a
//    parameter that no entry fills fails the suite, saying what to add;
//  - what a route takes besides its path (ROUTE_PROBES: ids in the query or the body, multipart) and, where
//    a refusal is not a 404, which status it is and why.
import { CHAT_MSG } from '../../src/domain/chat';
import { newId } from '../../src/domain/ids';
import { MSG } from '../../src/domain/messages';
import { manualTicketPayload, type SpendingForm } from '../../src/domain/spending-form';
import type { Request, World } from './world';

export interface PublicRoute {
  /** 'METHOD /path' as app.routes lists it; `*` in the path stands for anything, `*` as the method for any method. */
  route: string;
  why: string;
  /** A route with a credential of its own: what it answers without one. */
  refuses?: { status: number; message: string };
}

export const PUBLIC_ROUTES: PublicRoute[] = [
  { route: 'GET /api/v2/captcha', why: 'the sign-up proof of work is asked for before any account exists' },
  { route: 'POST /api/v2/create_user', why: 'sign-up' },
  { route: 'GET /api/v2/username_available', why: 'sign-up wizard: whether a user name is free, before any account exists (limited per address: 10 a minute, 60 an hour)' },
  { route: 'POST /api/v2/login', why: 'sign-in' },
  { route: 'POST /api/v2/password_reset*', why: 'password reset: the e-mailed single-use token is the credential' },
  { route: 'GET /meta_tags.json', why: 'catalog: expense categories, the same for everyone' },
  { route: 'GET /api/v2/app_links', why: 'the login screen’s store links: the configured store pages, the same for everyone' },
  { route: 'GET /income_meta_tags.json', why: 'catalog: income categories' },
  { route: 'GET /company/all.json', why: 'catalog: supported merchants' },
  { route: 'GET /form/fields.json', why: 'catalog: a merchant form’s fields' },
  { route: 'GET /form/data_types.json', why: 'catalog: form field types' },
  { route: 'GET /api/v3/plans.json', why: 'catalog: plans and prices' },
  { route: 'GET /api/v3/refund_account_types.json', why: 'catalog: refund account types' },
  { route: 'GET /api/v3/rfc/:rfc', why: 'RFC check: SAT’s public list, limited per address' },
  { route: 'GET /api/v33/tickets/verify', why: 'the anonymous invoice form checks a printed ticket (limited per address)' },
  { route: 'POST /api/v33/tickets/:ref/invoice4', why: 'anonymous invoice request for a printed ticket; refactura proves the ticket' },
  { route: '* /api/v33/invoice_requests/:id*', why: 'an anonymous request’s status, PDF and resend by its unguessable id (e-mail masked for others; a user’s PDF only to that user)' },
  { route: 'GET /api/v3/tickets/:ref*', why: 'public receipt view of a merchant ticket by its unguessable ref' },
  { route: 'POST /api/v3/merchants/:short/tickets', why: 'point of sale, with its own X-Merchant-Key', refuses: { status: 401, message: MSG.merchantKeyInvalid } },
  { route: 'GET /api/v3/payments/config.json', why: 'which card form the checkout shows, with Stripe’s publishable key (public by design): the same for everyone' },
  { route: 'POST /api/v3/payments/sandbox/tokens', why: 'sandbox card tokeniser, public like a publishable key (limited per address)' },
  { route: 'GET /api/v3/invitations/:file*', why: 'an invitation link shows its company before the invitee has an account' },
  { route: 'PUT /api/v3/invitations/:token/sign_up.json', why: 'sign-up from an invitation link (the token is the credential)' },
  { route: 'POST /oauth/request_token.json', why: 'OAuth: an app’s server, with its client secret' },
  { route: 'POST /oauth/access_token.json', why: 'OAuth: an app’s server exchanges the verifier, with its client secret' },
  { route: 'GET /oauth/authorize.json', why: 'OAuth consent screen: which app asks, by its request token' },
  {
    route: 'GET /api/v3/oauth/profile.json',
    why: 'OAuth: an app’s Bearer access token, never a session',
    refuses: { status: 401, message: MSG.oauthInvalidAccessToken },
  },
  { route: 'GET /api/openapi.json', why: 'API documentation' },
  { route: 'GET /api/docs', why: 'API documentation' },
  { route: '* /dev/*', why: 'development tools: embedded demo and loopback clients only, else 404 (http/dev-only.ts)' },
];

/** Path parameters that hold user A's ids, by "segment/:param" (the literal segment before the parameter). */
export interface ParamFill {
  /** A's id, as the path carries it. */
  a: (w: World) => string;
  /** B's own id, where the parameter scopes the ones after it (a user, a company): B's scope is tried with A's inner ids too. */
  b?: (w: World) => string;
}

export const PARAM_FILL: Record<string, ParamFill> = {
  'users/:id': { a: (w) => String(w.a.userId), b: (w) => String(w.b.userId) },
  'clients/:client_id': { a: (w) => String(w.a.companyClientId), b: (w) => String(w.b.companyClientId) },
  'tickets/:id': { a: (w) => w.a.ticketId },
  'spending/:rfc': { a: (w) => w.a.personRfc },
  'invoice_requests/:id': { a: (w) => w.a.requestId },
  'conversations/:id': { a: (w) => w.a.conversationId },
  'subscriptions/:client': { a: (w) => String(w.a.personClientId) },
  'areas/:file': { a: (w) => `${w.a.areaId}.json` },
  'collaborators/:file': { a: (w) => `${w.a.collaboratorId}.json` },
  'collaborators/:id': { a: (w) => String(w.a.collaboratorId) },
  'per_diem_events/:id': { a: (w) => String(w.a.eventId) },
  'branches/:file': { a: (w) => `${w.a.personRfc}.json` },
  'branches/:rfc': { a: (w) => w.a.personRfc },
  'oauth_grants/:grant': { a: (w) => `${w.a.grantId}.json` },
  'invitations/:token': { a: (w) => w.a.invitationToken },
};

/** Parameters that are not ids (the same for everyone), by name. */
export const VALUE_PARAMS: Record<string, (w: World) => string> = {
  year: (w) => String(w.a.invoiceMonth.year),
  month: (w) => String(w.a.invoiceMonth.month),
};

export interface RouteProbe {
  /** Not probed as B, and why (the reason is the documentation). */
  skip?: string;
  /** Added to the path: the query with A's ids. */
  query?: (w: World) => string;
  body?: (w: World) => unknown;
  form?: (w: World) => FormData;
  /** More requests of the same route (other ids of A's, other places for them), each with its own path, expectations and reason if they differ. */
  more?: ((w: World) => Omit<Request, 'method' | 'token' | 'path'> & { query?: string; path?: string; expect?: number[]; answer?: unknown; why?: string })[];
  /** Statuses B may get, when not 404 (the default for a route that takes A's ids), and why. */
  expect?: number[];
  why?: string;
  /** Exactly this body (as JSON), when the refusal has a fixed answer. */
  answer?: (w: World) => unknown;
  /** Markers the answer may hold because B sent them (an echo), by name in World.markers. */
  echoes?: string[];
  /** Probed after all the others, and why (a refusal that failed would change who B is). */
  last?: string;
  /** A GET whose answer to A is not a plain read (a stream): no control call as A. */
  noControl?: string;
}

const png = () => {
  const bytes = new Uint8Array(2_000);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Blob([bytes], { type: 'image/png' });
};
const spendingForm: SpendingForm = { kind: 'expense', amount: '10.00', date: '2026/01/15', category: '1', currency: 'MXN', nationalAmount: '', note: '' };
const month = (w: World, rfc: string) => `usuario[rfc_owner]=${rfc}&date[year]=${w.a.invoiceMonth.year}&date[month]=${w.a.invoiceMonth.month}`;
const invitation = (areaId: number | null, authorizerId: number | null) => ({
  invitation: { email: 'beto2@example.com', first_name: 'Beto', last_name: 'Intruso', area_id: areaId, corporate_card: '1234', account_type_for_refunds_id: 1, account_for_refunds: '032180000118359719', authorizer_id: authorizerId },
  email_text: '',
  company_name: '',
});
const perDiem = (areaId: number | null, collaboratorId: number | null) => ({
  per_diem_event: { event_name: 'evento de Beto', start_date: '2099-01-01', end_date: '2099-01-02', area_id: areaId, collaborator_id: collaboratorId, deposit: '10', notes: '' },
});
const uploadForm = (rfc: string) => {
  const f = new FormData();
  f.append('rfc', rfc);
  f.append('file', new Blob([new TextEncoder().encode('<?xml version="1.0"?><nada/>')]), 'beto.xml');
  return f;
};
const staffOnly = { expect: [403], why: 'the staff inbox answers 403 to anyone who is not staff, before it reads an id', answer: () => ({ errors: [MSG.forbidden] }) };

/** Keyed by 'METHOD /path' exactly as app.routes lists it. */
export const ROUTE_PROBES: Record<string, RouteProbe> = {
  'POST /api/v2/logout': { skip: 'signs the caller out: the revoked-token probe goes through it' },
  'POST /new_client': { why: 'makes an account of the caller’s own; it takes no ids (an RFC is no secret: spec allows two users the same RFC)' },
  'PUT /update_client': { body: (w) => ({ client: { diverza_client_id: w.a.personClientId, rfc: w.a.personRfc, first_name: 'Intrusa', last_name: 'Beto' } }) },
  'GET /api/v2/tickets': {
    query: (w) => month(w, w.a.personRfc),
    more: [(w) => ({ query: `${month(w, w.a.personRfc)}&action=stats` }), (w) => ({ query: `usuario[rfc_owner]=${w.a.personRfc}&usuario[view]=annual&date[year]=${w.a.invoiceMonth.year}` })],
  },
  'POST /form/ticket_create': {
    body: (w) => manualTicketPayload(spendingForm, w.a.personRfc, newId()),
    // B's own account, but A's ticket id as the client-made id: never A's ticket.
    more: [(w) => ({ body: manualTicketPayload(spendingForm, w.b.personRfc, w.a.ticketId) })],
    expect: [404, 409],
    why: 'A’s RFC is not B’s account (404); A’s ticket id as B’s new id is a 409 that reveals nothing of it',
  },
  'PUT /api/v2/update_ticket': { body: (w) => ({ ticket: { ticket_id: w.a.ticketId, meta_tag_id: null, income_meta_tag_id: null, notes: 'nota de Beto' } }) },
  'DELETE /api/v2/tickets': {
    body: (w) => ({ tickets: [w.a.ticketId, w.a.invoiceTicketId] }),
    expect: [200],
    why: 'a batch delete answers how many of the caller’s tickets went: 0, as for tickets already gone (outbox replays need the 2xx)',
    answer: () => ({ response: { deleted: 0 } }),
  },
  'POST /tickets/:id/attach_image': {
    form: () => {
      const f = new FormData();
      f.append('images[0]', png(), 'recibo.png');
      return f;
    },
  },
  'GET /api/v2/ticket_image': { query: (w) => `ticket_id=${w.a.ticketId}` },
  'GET /receipt_xml': { query: (w) => `receipt_id=${w.a.receiptId}` },
  'GET /receipt_pdf': { query: (w) => `receipt_id=${w.a.receiptId}`, more: [(w) => ({ query: `receipt_id=${w.a.receiptId}&download=1` })] },
  'POST /api/v3/file_links': {
    body: (w) => ({ kind: 'receipt_pdf', id: w.a.receiptId }),
    more: [(w) => ({ body: { kind: 'receipt_xml', id: w.a.receiptId } }), (w) => ({ body: { kind: 'ticket_image', id: w.a.ticketId } })],
  },
  'GET /api/v3/receipts/archive': { query: (w) => `tickets[]=${w.a.invoiceTicketId}&tickets[]=${w.a.ticketId}` },
  'POST /api/v2/send_receipt_email': {
    body: (w) => ({ email: { email: 'beto@example.com' }, tickets: [{ ticket_id: w.a.invoiceTicketId }] }),
    expect: [422],
    why: 'the spec’s answer for a selection without invoices of one’s own (nothing is mailed)',
    answer: () => ({ errors: [MSG.archiveNoReceipts] }),
  },
  'POST /form/ticket_create_multi': {
    body: (w) => ({ usuario: { rfc: w.a.personRfc }, company: { id: 3 }, tickets: [[{ form_configuration_id: 302, value: '123456' }], [{ form_configuration_id: 302, value: '123457' }]], additional_info: {} }),
    expect: [404, 422],
    why: 'A’s RFC is not B’s account',
  },
  'GET /api/v3/cfdi/lookup': {
    query: (w) => `id=${w.a.uuid}`,
    expect: [200],
    why: 'a UUID alone proves nothing: the answer is "unknown" and repeats only what B sent',
    answer: (w) => ({ response: { uuid: w.a.uuid, rfc_issuer: '', name_issuer: '', rfc_receiver: '', total: '', emission_date: null, state: 'unknown', ticket_id: null } }),
    echoes: ['uuid'],
  },
  'POST /api/v3/cfdi/import': {
    // With the whole SAT QR of A's invoice, and with its UUID alone.
    body: (w) => ({ uuid: w.a.uuid, re: w.a.invoiceIssuerRfc, rr: w.a.personRfc, tt: w.a.invoiceTotal }),
    more: [(w) => ({ body: { uuid: w.a.uuid } })],
    expect: [400, 403, 404, 422],
    why: 'importing a CFDI the platform issued needs the QR’s data (400 without) and a verified RFC of one’s own that it names (422/403): nothing imported',
  },
  'GET /api/v3/chat': { query: (w) => `after=${w.a.messageId}`, more: [(w) => ({ query: `before=${w.a.messageId}` })], expect: [200], why: 'the caller’s own conversation; A’s message ids as cursors show nothing of A’s' },
  'POST /api/v3/chat/messages': {
    body: (w) => ({ id: w.a.messageId, body: 'hola' }),
    expect: [422],
    why: 'a client id already used by someone else’s message: the chat’s own refusal, never that message',
    answer: () => ({ errors: [CHAT_MSG.badId] }),
  },
  'GET /api/v3/support/conversations': { ...staffOnly, query: () => 'status=all' },
  'GET /api/v3/support/conversations/:id': staffOnly,
  'POST /api/v3/support/conversations/:id/messages': { ...staffOnly, body: () => ({ body: 'hola' }) },
  'POST /api/v3/support/conversations/:id/read': staffOnly,
  'POST /api/v3/support/conversations/:id/close': staffOnly,
  'PUT /api/v3/exchange_rates': { ...staffOnly, why: 'manual exchange rates are staff’s: 403 for anyone else', body: () => ({ base: 'USD', date: '2026-01-15', rate: 17 }) },
  'POST /api/v3/subscriptions.json': { body: (w) => ({ subscription: { plan_id: 3, client_id: w.a.personClientId, token: 'tok_visa' } }) },
  'POST /api/v3/clients/:client_id/areas.json': { body: () => ({ area: 'intrusos' }) },
  'POST /api/v3/clients/:client_id/collaborators.json': {
    body: (w) => invitation(w.a.areaId, null),
    // In B's own company, A's department or A's collaborator as the authorizer: never linked.
    more: [
      (w) => ({ path: `/api/v3/clients/${w.b.companyClientId}/collaborators.json`, body: invitation(w.a.areaId, null), expect: [400], answer: { errors: [MSG.collaboratorAreaRequired] }, why: 'the department must be the company’s' }),
      (w) => ({ path: `/api/v3/clients/${w.b.companyClientId}/collaborators.json`, body: invitation(w.b.areaId, w.a.collaboratorId), expect: [400], answer: { errors: [MSG.collaboratorAuthorizerInvalid] }, why: 'the authorizer must be the company’s' }),
    ],
  },
  'PUT /api/v3/clients/:client_id/collaborators/:file{[^/]+\\.json}': { body: () => ({ invitation: { first_name: 'Intrusa' }, resend: true, email_text: '', company_name: '' }) },
  'POST /api/v3/clients/:client_id/per_diem_events.json': {
    body: () => perDiem(null, null),
    // In B's own company, A's department or A's collaborator: never linked.
    more: [
      (w) => ({ path: `/api/v3/clients/${w.b.companyClientId}/per_diem_events.json`, body: perDiem(w.a.areaId, null), expect: [422], answer: { errors: [MSG.perDiemAreaInvalid] }, why: 'the department must be the company’s' }),
      (w) => ({ path: `/api/v3/clients/${w.b.companyClientId}/per_diem_events.json`, body: perDiem(null, w.a.collaboratorId), expect: [422], answer: { errors: [MSG.perDiemCollaboratorInvalid] }, why: 'the collaborator must be the company’s' }),
    ],
  },
  'POST /api/v3/users/:id/files': {
    // B's own uploads, into A's account by its RFC: refused.
    more: [(w) => ({ path: `/api/v3/users/${w.b.userId}/files`, form: uploadForm(w.a.personRfc), expect: [422], answer: { errors: [MSG.importAccountNotFound] }, why: 'the account must be the caller’s' })],
  },
  'PUT /api/v3/invitations/:token/accept.json': {
    body: (w) => ({ rfc: w.b.personRfc }),
    expect: [403, 404],
    why: 'an invitation is accepted only by the e-mail it was sent to: a forwarded link puts no one else in the company',
    last: 'if it let B in, B would be A’s collaborator and every company probe after it would test that instead',
  },
  'GET /tickets/colaborators': { query: (w) => month(w, w.a.companyRfc) },
  'GET /tickets/colaborator_stats': { query: (w) => month(w, w.a.companyRfc) },
  'PUT /tickets/mark_as_paid': {
    body: (w) => ({ tickets: [w.a.collaboratorTicketId], client_id: w.a.companyClientId }),
    more: [(w) => ({ body: { tickets: [w.a.collaboratorTicketId] } }), (w) => ({ body: { tickets: [w.a.collaboratorTicketId], client_id: w.b.companyClientId } })],
  },
  'PUT /tickets/mark_as_rejected': {
    body: (w) => ({ tickets: [w.a.collaboratorTicketId], client_id: w.a.companyClientId, reason: 'no' }),
    more: [(w) => ({ body: { tickets: [w.a.collaboratorTicketId], reason: 'no' } }), (w) => ({ body: { tickets: [w.a.collaboratorTicketId], client_id: w.b.companyClientId, reason: 'no' } })],
  },
  'POST /api/v1/AuthenticateSATPortal': { body: (w) => ({ rfc: w.a.personRfc, clave_ciec: 'Adivina123' }) },
  'PUT /api/v3/users/:id/branches/:file{[^/]+\\.json}': { body: () => ({ sat_password: 'Adivina123' }) },
  'GET /api/v3/users/:id/files/statuses': { noControl: 'a server-sent events stream that stays open' },
  'POST /oauth/authorize.json': {
    body: (w) => ({ oauth_token: w.oauthRequestToken, rfc: w.a.personRfc }),
    answer: () => ({ errors: [MSG.oauthRfcNotYours] }),
  },
};
