// The security suite: its probe list is the app's own route table (app.routes), so a route added later is
// probed without anyone listing it. Every route must refuse a request without a session (401) unless it is
// on the public allow-list; every authenticated route refuses a wrong and a revoked token the same way; and
// user B, calling each authenticated route with user A's ids, gets a 404 (or the refusal the table
// justifies), never A's data, and changes nothing of A's.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { ApiResult } from '../server/helpers/harness';
import { DRIVERS } from '../server/helpers/harness';
import { PARAM_FILL, PUBLIC_ROUTES, ROUTE_PROBES, VALUE_PARAMS, type PublicRoute, type RouteProbe } from './route-table';
import { clients } from '../../src/server/db/schema';
import { buildWorld, SOCKET, type Request, type World } from './world';

const TABLE = 'tests/security/route-table.ts';
const UNAUTHORIZED = { errors: [MSG.unauthorized] };

type Part = { lit: string } | { param: string; pattern?: string; segment: string };

interface Route {
  method: string;
  path: string;
  /** 'METHOD /path', as the tables key it. */
  key: string;
  parts: Part[];
}

/** Splits a Hono path into literals and parameters (`:name` or `:name{regex}`, the regex may hold braces and slashes). */
function parsePath(path: string): Part[] {
  const parts: Part[] = [];
  let lit = '';
  let i = 0;
  while (i < path.length) {
    if (path[i] === ':' && path[i - 1] === '/') {
      let j = i + 1;
      while (j < path.length && /\w/.test(path[j]!)) j++;
      const param = path.slice(i + 1, j);
      let pattern: string | undefined;
      if (path[j] === '{') {
        let depth = 0;
        let k = j;
        for (; k < path.length; k++) {
          if (path[k] === '{') depth++;
          else if (path[k] === '}' && --depth === 0) break;
        }
        pattern = path.slice(j + 1, k);
        j = k + 1;
      }
      const segment = lit.replace(/\/$/, '').split('/').pop() ?? '';
      if (lit) parts.push({ lit });
      lit = '';
      parts.push({ param, pattern, segment });
      i = j;
    } else {
      lit += path[i];
      i++;
    }
  }
  if (lit) parts.push({ lit });
  return parts;
}

const params = (r: Route) => r.parts.filter((p): p is Extract<Part, { param: string }> => 'param' in p);
const fillKey = (p: { param: string; segment: string }) => `${p.segment}/:${p.param}`;

/** Values that fit a parameter's regex when nothing better is known (a public route's `:ref`, `:short`…). */
function sampleFor(pattern: string | undefined): string {
  const candidates = ['1', '1.json', 'ABCDEFGHJKLMNPQR', '01a2168b-73eb-7654-911f-4ccc9111fc32', 'x'];
  if (!pattern) return '1';
  return candidates.find((c) => new RegExp(`^(?:${pattern})$`).test(c)) ?? '1';
}

/** The route's path with A's ids, or B's own where `scopeOfB` names the parameter, or a sample where nothing is known. */
function pathOf(r: Route, w: World, scopeOfB?: string): string {
  return r.parts
    .map((p) => {
      if ('lit' in p) return p.lit;
      const value = VALUE_PARAMS[p.param];
      if (value) return value(w);
      const fill = PARAM_FILL[fillKey(p)];
      if (!fill) return sampleFor(p.pattern);
      const v = scopeOfB === fillKey(p) && fill.b ? fill.b(w) : fill.a(w);
      if (p.pattern && !new RegExp(`^(?:${p.pattern})$`).test(v)) throw new Error(`${r.key}: ${fillKey(p)} = '${v}' does not fit {${p.pattern}}`);
      return encodeURIComponent(v).replace(/%40/g, '@');
    })
    .join('');
}

function globMatch(glob: string, text: string): boolean {
  const re = new RegExp(`^${glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(text);
}

function publicEntry(r: Route): PublicRoute | undefined {
  return PUBLIC_ROUTES.find((p) => {
    const [method, path] = p.route.split(' ') as [string, string];
    return (method === '*' || method === r.method) && globMatch(path, r.path);
  });
}

interface Probe {
  label: string;
  req: Omit<Request, 'token'>;
  /** The route's own request with A's ids (a GET of it is tried as A first). */
  allA: boolean;
  /** A variant's own expectations. */
  expect?: number[];
  answer?: unknown;
  why?: string;
}

/** Every request of a route, as B would send it with A's ids (and B's own scope with A's inner ids). */
function requestsOf(r: Route, w: World, probe: RouteProbe | undefined): Probe[] {
  const withQuery = (path: string, query: string | undefined) => (query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path);
  const base = (path: string): Omit<Request, 'token'> => {
    const req: Omit<Request, 'token'> = { method: r.method === 'ALL' ? 'GET' : r.method, path: withQuery(path, probe?.query?.(w)) };
    if (probe?.form) req.form = probe.form(w);
    else if (probe?.body) req.body = probe.body(w);
    else if (req.method !== 'GET') req.body = {};
    return req;
  };
  const out: Probe[] = [{ label: 'A’s ids', req: base(pathOf(r, w)), allA: true }];
  const ids = params(r).filter((p) => PARAM_FILL[fillKey(p)]);
  if (ids.length >= 2) {
    for (const p of ids) {
      if (PARAM_FILL[fillKey(p)]!.b) out.push({ label: `B’s own ${fillKey(p)}, A’s other ids`, req: base(pathOf(r, w, fillKey(p))), allA: false });
    }
  }
  for (const [i, more] of (probe?.more ?? []).entries()) {
    const m = more(w);
    const req: Omit<Request, 'token'> = { method: r.method, path: withQuery(m.path ?? pathOf(r, w), m.query) };
    if (m.form) req.form = m.form;
    else if (m.body !== undefined) req.body = m.body;
    else if (req.method !== 'GET') req.body = {};
    out.push({ label: `variant ${i + 1}`, req, allA: false, expect: m.expect, answer: m.answer, why: m.why });
  }
  return out;
}

/** The request used for the token probes: the route's first request, with a fresh form (a FormData is read once). */
function tokenProbe(r: Route, w: World): Omit<Request, 'token'> {
  return requestsOf(r, w, ROUTE_PROBES[r.key])[0]!.req;
}

/** The signed-out token in each place DESIGN §3 accepts a session token from. */
function inEveryPlace(make: () => Omit<Request, 'token'>, token: string): (readonly [string, Request])[] {
  const withQuery = (req: Omit<Request, 'token'>, q: string) => ({ ...req, path: `${req.path}${req.path.includes('?') ? '&' : '?'}${q}` });
  const req = make();
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : null;
  return [
    ['a signed-out token in X-Access-Token', { ...make(), token }],
    ['a signed-out token in the token header', { ...make(), headers: { token } }],
    ['a signed-out token in the access_token query', withQuery(make(), `access_token=${token}`)],
    body
      ? ['a signed-out token as user.token in the body', { ...req, body: { ...body, user: { ...(body.user as object | undefined), token } } }]
      : ['a signed-out token as user[token] in the query', withQuery(make(), `user[token]=${token}`)],
  ];
}

const shown = (res: ApiResult) => `${res.status} ${res.text.slice(0, 160)}`;

describe.each(DRIVERS)('security of every registered route (%s)', (driver) => {
  let w: World;
  let routes: Route[];
  /** Routes that answered 401 with the session message to a request without a token. */
  let sessionRoutes: Route[];
  const anonymous = new Map<string, ApiResult>();

  beforeAll(async () => {
    w = await buildWorld(driver);
    const seen = new Set<string>();
    routes = [];
    const concrete = new Set(w.app.routes.filter((r) => r.method !== 'ALL').map((r) => r.path));
    for (const { method, path } of w.app.routes) {
      // app.use middleware is listed as ALL (a wildcard, or the path of the endpoint it guards): not an endpoint.
      if (method === 'ALL' && (path.includes('*') || concrete.has(path))) continue;
      const key = `${method} ${path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      routes.push({ method, path, key, parts: parsePath(path) });
    }
    sessionRoutes = [];
    for (const r of [...routes]) {
      const res = await w.call(tokenProbe(r, w));
      // Middleware on a path of its own with no endpoint behind it: the app's plain 404.
      if (r.method === 'ALL' && res.status === 404 && JSON.stringify(res.json) === JSON.stringify({ errors: [MSG.notFound] })) {
        routes.splice(routes.indexOf(r), 1);
        continue;
      }
      anonymous.set(r.key, res);
      if (res.status === 401 && JSON.stringify(res.json) === JSON.stringify(UNAUTHORIZED)) sessionRoutes.push(r);
    }
  }, 240_000);
  afterAll(async () => w?.close());

  it('reads a real route table', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(sessionRoutes.length).toBeGreaterThan(40);
  });

  it('answers 401 without a session on every route that is not on the public allow-list', () => {
    const problems: string[] = [];
    for (const r of routes) {
      const res = anonymous.get(r.key)!;
      const pub = publicEntry(r);
      if (sessionRoutes.includes(r)) continue;
      if (!pub) {
        problems.push(
          `${r.key} answered ${shown(res)} without a token. Put it behind requireAuth, or, if it is public on purpose, add it to PUBLIC_ROUTES in ${TABLE} with a one-line reason.`,
        );
      } else if (pub.refuses && (res.status !== pub.refuses.status || JSON.stringify(res.json) !== JSON.stringify({ errors: [pub.refuses.message] }))) {
        problems.push(`${r.key} (${pub.why}) answered ${shown(res)} without its credential, not ${pub.refuses.status} '${pub.refuses.message}'`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses a wrong token, and a signed-out one in each of its four places, with 401 and the Spanish message on every authenticated route', async () => {
    const logout = sessionRoutes.find((r) => r.method === 'POST' && /\/logout$/.test(r.path));
    expect(logout, 'no POST …/logout route among the authenticated ones').toBeDefined();
    expect((await w.call({ method: 'GET', path: '/user_clients', token: w.spareToken })).status).toBe(200);
    const out = await w.call({ method: 'POST', path: logout!.path, token: w.spareToken, body: {} });
    expect(out.status, out.text).toBe(200);
    // Signing one session out leaves the others.
    expect((await w.call({ method: 'GET', path: '/user_clients', token: w.a.token })).status).toBe(200);

    const wrong = randomBytes(32).toString('base64url');
    const problems: string[] = [];
    for (const r of sessionRoutes) {
      for (const [what, req] of [['a wrong token', { ...tokenProbe(r, w), token: wrong }] as const, ...inEveryPlace(() => tokenProbe(r, w), w.spareToken)]) {
        const res = await w.call(req);
        if (res.status !== 401 || JSON.stringify(res.json) !== JSON.stringify(UNAUTHORIZED)) problems.push(`${r.key} with ${what}: ${shown(res)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('knows how to put A’s ids in every path parameter of an authenticated route', () => {
    const problems: string[] = [];
    for (const r of sessionRoutes) {
      if (ROUTE_PROBES[r.key]?.skip) continue;
      for (const p of params(r)) {
        if (VALUE_PARAMS[p.param] || PARAM_FILL[fillKey(p)]) continue;
        problems.push(
          `${r.key}: the security suite does not know what to put in ':${p.param}' (after '${p.segment}/'). ` +
            `Add '${fillKey(p)}' to PARAM_FILL in ${TABLE} (A's id from tests/security/world.ts, and B's own id if it scopes the ids after it), ` +
            `or '${p.param}' to VALUE_PARAMS if it is not an id — and give user A such a thing in buildWorld.`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  /** What A reads of their own: must be the same after B's probes. */
  const snapshot = async () => {
    const paths = [
      '/user_clients',
      `/api/v2/tickets?usuario[rfc_owner]=${w.a.personRfc}&date[year]=${w.a.invoiceMonth.year}&date[month]=${w.a.invoiceMonth.month}`,
      `/api/v2/tickets?usuario[rfc_owner]=${w.a.personRfc}&usuario[view]=annual&date[year]=${w.a.invoiceMonth.year}`,
      `/api/v2/tickets?usuario[rfc_owner]=${w.a.personRfc}&date[year]=${w.a.invoiceMonth.year}&date[month]=1`,
      `/receipt_xml?receipt_id=${w.a.receiptId}`,
      `/api/v2/ticket_image?ticket_id=${w.a.ticketId}`,
      '/api/v3/chat',
      `/api/v3/clients/${w.a.companyClientId}/areas.json`,
      `/api/v3/clients/${w.a.companyClientId}/collaborators.json`,
      `/api/v3/clients/${w.a.companyClientId}/per_diem_events.json`,
      `/tickets/colaborators?usuario[rfc_owner]=${w.a.companyRfc}&date[year]=${w.a.invoiceMonth.year}&date[month]=${w.a.invoiceMonth.month}`,
      `/api/v3/users/${w.a.userId}/oauth_grants.json`,
      `/api/v3/users/${w.a.userId}/branches/${w.a.personRfc}/sync`,
      `/api/v3/invitations/${w.a.invitationToken}.json`,
    ];
    const out: Record<string, string> = {};
    for (const path of paths) {
      const res = await w.call({ method: 'GET', path, token: w.a.token });
      out[path] = shown(res).slice(0, 4) + res.text;
    }
    return out;
  };

  it('gives user B a 404 (or the justified refusal) on user A’s ids, never A’s data, and changes nothing of A’s', async () => {
    const before = await snapshot();
    for (const [path, seen] of Object.entries(before)) expect(seen.slice(0, 3), `A reads ${path}`).toBe('200');

    const problems: string[] = [];
    const ordered = [...sessionRoutes.filter((r) => !ROUTE_PROBES[r.key]?.last), ...sessionRoutes.filter((r) => ROUTE_PROBES[r.key]?.last)];
    for (const r of ordered) {
      const probe = ROUTE_PROBES[r.key];
      if (probe?.skip) continue;
      const takesIds = params(r).some((p) => PARAM_FILL[fillKey(p)]) || Boolean(probe?.query || probe?.body || probe?.form || probe?.more);
      const allowed = probe?.expect ?? (takesIds ? [404] : undefined);
      for (const { label, req, allA, ...own } of requestsOf(r, w, probe)) {
        const where = `${r.key} (${label}: ${req.method} ${req.path})`;
        const expected = own.expect ?? allowed;
        const answer = own.expect ? own.answer : probe?.answer?.(w);
        const why = own.expect ? own.why : probe?.why;
        // The same request as A must work, or the probe proves nothing (reads only: a write would change A's data).
        if (allA && req.method === 'GET' && !probe?.noControl && !probe?.expect && takesIds) {
          const mine = await w.call({ ...req, token: w.a.token });
          if (mine.status < 200 || mine.status > 299) problems.push(`${where}: A's own call answered ${shown(mine)}; the probe's ids are not A's`);
        }
        const res = await w.call({ ...req, token: w.b.token });
        if (expected ? !expected.includes(res.status) : res.status >= 500) {
          problems.push(`${where}: B got ${shown(res)}, expected ${expected ? expected.join(' or ') : 'no 5xx'}${why ? ` (${why})` : ''}`);
        }
        if (res.status >= 400 && !(Array.isArray(res.json?.errors) && res.json.errors.every((e: unknown) => typeof e === 'string'))) {
          problems.push(`${where}: a refusal without the {errors: […]} envelope: ${shown(res)}`);
        }
        if (answer !== undefined && JSON.stringify(res.json) !== JSON.stringify(answer)) {
          problems.push(`${where}: B got ${shown(res)}, expected exactly ${JSON.stringify(answer)}`);
        }
        const text = res.text.toLowerCase();
        for (const [name, value] of Object.entries(w.markers)) {
          if (probe?.echoes?.includes(name)) continue;
          if (text.includes(value.toLowerCase())) problems.push(`${where}: B's answer holds A's ${name} (${value}): ${shown(res)}`);
        }
      }
    }
    expect(problems).toEqual([]);

    // Nothing of A's changed, and nothing was mailed on B's behalf.
    expect(await snapshot()).toEqual(before);
    expect(w.mail.filter((m) => m.to.includes('beto'))).toEqual([]);
  });

  it('lets no one else re-invoice A’s stamped invoice through its merchant ticket’s ref, with or without its proof', async () => {
    const before = await snapshot();
    const receiver = { email: 'beto@example.com', rfc: w.b.personRfc, uso_cfdi: 'G03', nombre: 'BETO INTRUSO', regimen_fiscal_receptor: '612', codigo_postal: '06600', refactura: 1 };
    const proof = { check: w.a.invoiceTicket.checkCode, total: w.a.invoiceTicket.total };
    const tries: [string, Request][] = [
      ['anonymous, the ref alone', { method: 'POST', path: `/api/v33/tickets/${w.a.invoiceTicket.ref}/invoice4`, body: receiver }],
      ['anonymous, with the ticket’s check code and total', { method: 'POST', path: `/api/v33/tickets/${w.a.invoiceTicket.ref}/invoice4`, body: { ...receiver, ...proof } }],
      ['B signed in, with the proof', { method: 'POST', path: `/api/v33/tickets/${w.a.invoiceTicket.ref}/invoice4`, token: w.b.token, body: { ...receiver, ...proof, client: w.b.personClientId } }],
    ];
    const problems: string[] = [];
    for (const [what, req] of tries) {
      const res = await w.call(req);
      if (res.status < 400 || res.status > 499 || !Array.isArray(res.json?.errors)) problems.push(`${what}: ${shown(res)}`);
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(w.mail.filter((m) => m.to.includes('beto'))).toEqual([]);
  });

  it('streams B only B’s own upload statuses, even when B names A’s upload', async () => {
    const form = new FormData();
    form.append('file', new Blob([new TextEncoder().encode('<?xml version="1.0"?><nada/>')]), 'carga-de-beto.xml');
    const up = await w.call({ method: 'POST', path: `/api/v3/users/${w.b.userId}/files`, token: w.b.token, form });
    expect(up.status, up.text).toBe(200);
    const mine = up.json.response.files[0].id as string;
    const res = await w.app.request(
      `/api/v3/users/${w.b.userId}/files/statuses?ids[]=${w.a.uploadId}&ids[]=${mine}`,
      { headers: { 'x-access-token': w.b.token, 'x-forwarded-for': '10.250.0.1' } },
      SOCKET,
    );
    expect(res.status).toBe(200);
    // One look sends every row in scope, oldest first: A's upload, were it in scope, comes before B's.
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(mine)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text).toContain(mine);
    expect(text).not.toContain(w.a.uploadId);
    expect(text).not.toContain(w.markers.uploadName);
  });

  it('gives a second holder of A’s RFCs none of A’s data: it belongs to A’s accounts, not to the RFC', async () => {
    const before = await snapshot();
    // An RFC is no secret (two users may hold one, spec): B adds A's, unverified, on the same plans.
    const person = await w.call({ method: 'POST', path: '/new_client', token: w.b.token, body: { client: { rfc: w.a.personRfc, first_name: 'Beto', last_name: 'Intruso' } } });
    expect(person.status, person.text).toBe(200);
    const company = await w.call({
      method: 'POST', path: '/new_client', token: w.b.token,
      body: { client: { rfc: w.a.companyRfc, name: 'Intrusos Dos SA' }, ubication_data: { street: 'Reforma', external_number: '2', city: 'CDMX', state: 'CDMX', zip_code: '06600' } },
    });
    expect(company.status, company.text).toBe(200);
    const companyId = company.json.response.diverza_client_id as number;
    await w.h.database.db.update(clients).set({ planId: 2 }).where(eq(clients.id, person.json.response.diverza_client_id as number));
    await w.h.database.db.update(clients).set({ planId: 6, subscriptionId: 4 }).where(eq(clients.id, companyId));

    const { year, month } = w.a.invoiceMonth;
    const reads = [
      `/api/v2/tickets?usuario[rfc_owner]=${w.a.personRfc}&date[year]=${year}&date[month]=${month}`,
      `/api/v2/tickets?usuario[rfc_owner]=${w.a.personRfc}&usuario[view]=annual&date[year]=${year}`,
      `/api/v2/tickets?usuario[rfc_owner]=${w.a.personRfc}&usuario[view]=annual&date[year]=${year}&action=stats`,
      `/api/v3/analytics/spending/${w.a.personRfc}/${year}/${month}`,
      `/api/v3/analytics/spending/${w.a.personRfc}/${year}`,
      `/tickets/colaborators?usuario[rfc_owner]=${w.a.companyRfc}&date[year]=${year}&date[month]=${month}`,
      `/tickets/colaborator_stats?usuario[rfc_owner]=${w.a.companyRfc}&date[year]=${year}&date[month]=${month}`,
      `/api/v3/clients/${companyId}/areas.json`,
      `/api/v3/clients/${companyId}/collaborators.json`,
      `/api/v3/clients/${companyId}/per_diem_events.json`,
      `/api/v3/users/${w.b.userId}/branches/${w.a.personRfc}/sync`,
    ];
    const holds = ['personRfc', 'companyRfc'];
    const problems: string[] = [];
    for (const path of reads) {
      const res = await w.call({ method: 'GET', path, token: w.b.token });
      if (res.status !== 200) problems.push(`${path}: ${shown(res)}`);
      for (const [name, value] of Object.entries(w.markers)) {
        if (!holds.includes(name) && res.text.toLowerCase().includes(value.toLowerCase())) problems.push(`${path}: B's answer holds A's ${name}: ${shown(res)}`);
      }
    }
    // Nothing of A's SAT connection shows on B's copy of the RFC.
    const sync = await w.call({ method: 'GET', path: `/api/v3/users/${w.b.userId}/branches/${w.a.personRfc}/sync`, token: w.b.token });
    expect(sync.json.response.method).toBeNull();
    // An unverified copy of an RFC cannot pull the CFDI issued to it by UUID and QR, nor invite in the company's name.
    const imported = await w.call({ method: 'POST', path: '/api/v3/cfdi/import', token: w.b.token, body: { uuid: w.a.uuid, re: w.a.invoiceIssuerRfc, rr: w.a.personRfc, tt: w.a.invoiceTotal } });
    if (imported.status !== 403) problems.push(`cfdi/import by the QR into B's unverified copy of A's RFC: ${shown(imported)}`);
    const invited = await w.call({ method: 'POST', path: `/api/v3/clients/${companyId}/collaborators.json`, token: w.b.token, body: { invitation: { email: 'otra@example.com', first_name: 'Otra', last_name: 'Persona', area_id: null, corporate_card: '1234', account_type_for_refunds_id: 1, account_for_refunds: '032180000118359719', authorizer_id: null }, email_text: '', company_name: '' } });
    if (invited.status !== 403) problems.push(`an invitation in the name of B's unverified copy of A's company RFC: ${shown(invited)}`);
    expect(problems).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('replays nothing of A’s to B who sends the same Idempotency-Key', async () => {
    const key = `clave-${randomBytes(8).toString('hex')}`;
    const body = { body: 'mensaje con la misma clave' };
    const mine = await w.call({ method: 'POST', path: '/api/v3/chat/messages', token: w.a.token, body, headers: { 'Idempotency-Key': key } });
    expect(mine.status, mine.text).toBe(201);
    const theirs = await w.call({ method: 'POST', path: '/api/v3/chat/messages', token: w.b.token, body, headers: { 'Idempotency-Key': key } });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.json.response.message.id).not.toBe(mine.json.response.message.id);
    expect(theirs.text).not.toContain(w.a.conversationId);
  });

  it('shows an anonymous invoice request’s status to others without its owner’s e-mail', async () => {
    const own = await w.call({ method: 'GET', path: `/api/v33/invoice_requests/${w.a.requestId}`, token: w.a.token });
    expect(own.json.response.email).toBe(w.a.email);
    const other = await w.call({ method: 'GET', path: `/api/v33/invoice_requests/${w.a.requestId}`, token: w.b.token });
    expect(other.status).toBe(200);
    expect(other.text).not.toContain(w.a.email);
    // A's request is A's: no one else is handed its PDF, or a path to it.
    expect(own.json.response.pdf_url).toBe(`/api/v33/invoice_requests/${w.a.requestId}/pdf`);
    expect(other.json.response.pdf_url).toBeNull();
  });

  it('gives the PDF of A’s invoice request to A alone: B and a caller without a session get a Spanish 404', async () => {
    const path = `/api/v33/invoice_requests/${w.a.requestId}/pdf`;
    const mine = await w.call({ method: 'GET', path, token: w.a.token });
    expect(mine.status, mine.text.slice(0, 160)).toBe(200);
    for (const token of [w.b.token, undefined]) {
      const res = await w.call({ method: 'GET', path, token });
      expect([res.status, res.json]).toEqual([404, { errors: [MSG.notFound] }]);
    }
    const link = await w.call({ method: 'POST', path: '/api/v3/file_links', token: w.b.token, body: { kind: 'invoice_pdf', id: w.a.requestId } });
    expect([link.status, link.json]).toEqual([404, { errors: [MSG.notFound] }]);
  });
});
