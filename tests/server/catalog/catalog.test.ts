import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../../src/domain/categories';
import { PLANS } from '../../../src/domain/plans';
import { seed } from '../../../src/server/seed';
import { clients, merchantTickets, users } from '../../../src/server/db/schema';
import { seedDemoMerchantTickets } from '../../../src/server/merchants/demo-tickets';
import { ENDPOINTS } from '../../../src/server/endpoints';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('catalogs, seeds and OpenAPI on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('serves the expense and income categories publicly', async () => {
    const tags = await h.call('GET', '/meta_tags.json');
    expect(tags.status).toBe(200);
    expect(tags.json.response).toEqual(EXPENSE_CATEGORIES.map((t) => ({ id: t.id, meta_tag: t.meta_tag })));
    expect(tags.json.response.find((t: { id: number }) => t.id === 11).meta_tag).toBe('Gastos Financieros');
    const income = await h.call('GET', '/income_meta_tags.json');
    expect(income.json.response).toEqual(INCOME_CATEGORIES.map((t) => ({ id: t.id, income_meta_tag: t.income_meta_tag })));
  });

  it('serves the plans publicly as {id,name,summary,price}', async () => {
    const r = await h.call('GET', '/api/v3/plans.json');
    expect(r.status).toBe(200);
    expect(r.json.response).toEqual(PLANS.map((p) => ({ id: p.id, name: p.name, summary: p.summary, price: p.price })));
  });

  it('seeds idempotently: running it again adds nothing', async () => {
    const before = { users: (await h.database.db.select().from(users)).length, clients: (await h.database.db.select().from(clients)).length };
    await seed(h.database.db);
    expect((await h.database.db.select().from(users)).length).toBe(before.users);
    expect((await h.database.db.select().from(clients)).length).toBe(before.clients);
    const staff = (await h.database.db.select().from(users)).filter((u) => u.isStaff).map((u) => u.username);
    expect(staff).toEqual(['soporte']);
  });

  it('documents every endpoint in /api/openapi.json (OpenAPI 3.1) with request schemas from valibot', async () => {
    const r = await h.call('GET', '/api/openapi.json');
    expect(r.status).toBe(200);
    const doc = r.json;
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const expected = [
      'GET /api/v2/captcha',
      'POST /api/v2/create_user',
      'POST /api/v2/login',
      'POST /api/v2/logout',
      'POST /api/v2/password_reset',
      'POST /api/v2/password_reset/confirm',
      'GET /user_clients',
      'POST /new_client',
      'PUT /update_client',
      'GET /meta_tags.json',
      'GET /income_meta_tags.json',
      'GET /api/v3/plans.json',
      'GET /company/all.json',
      'GET /api/v2/tickets',
      'POST /form/ticket_create',
      'PUT /api/v2/update_ticket',
      'DELETE /api/v2/tickets',
      'POST /tickets/{id}/attach_image',
      'GET /api/v2/ticket_image',
      'GET /receipt_xml',
      'GET /receipt_pdf',
      'GET /api/v3/receipts/archive',
      'POST /api/v2/send_receipt_email',
      'POST /api/v3/users/{id}/files',
      'GET /api/v3/users/{id}/files/statuses',
      'GET /api/v3/analytics/spending/{rfc}/{year}/{month}',
      'GET /api/v3/analytics/spending/{rfc}/{year}',
      'GET /api/v3/exchange_rates',
      'PUT /api/v3/exchange_rates',
      'GET /api/openapi.json',
      'GET /api/docs',
      'GET /dev/mailbox',
      // merchants, invoicing and the public ticket view
      'GET /form/fields.json',
      'GET /form/data_types.json',
      'GET /api/v33/tickets/verify',
      'POST /api/v3/merchants/{short_name}/tickets',
      'GET /api/v3/rfc/{rfc}',
      'GET /dev/merchant-tickets',
      'GET /dev/merchant-tickets/{short_name}',
      'POST /form/ticket_create_multi',
      'POST /api/v33/tickets/{ref}/invoice4',
      'GET /api/v33/invoice_requests/{id}',
      'GET /api/v33/invoice_requests/{id}/pdf',
      'POST /api/v33/invoice_requests/{id}/resend',
      'POST /api/v3/invoice_requests/{id}/retry',
      'GET /api/v3/cfdi/lookup',
      'POST /api/v3/cfdi/import',
      'GET /api/v3/tickets/{ref}',
      'GET /api/v3/tickets/{ref}/qr.svg',
      // plans and payments, support chat
      'POST /api/v3/payments/sandbox/tokens',
      'POST /api/v3/subscriptions.json',
      'GET /api/v3/subscriptions/{client}/payments.json',
      'GET /api/v3/chat',
      'POST /api/v3/chat/messages',
      'POST /api/v3/chat/read',
      'GET /api/v3/support/conversations',
      'GET /api/v3/support/conversations/{id}',
      'POST /api/v3/support/conversations/{id}/messages',
      'POST /api/v3/support/conversations/{id}/read',
      'POST /api/v3/support/conversations/{id}/close',
      // SAT sync
      'POST /api/v1/AuthenticateSATPortal',
      'PUT /api/v3/users/{id}/branches/{rfc}.json',
      'DELETE /api/v3/users/{id}/branches/{rfc}.json',
      'PUT /api/v3/users/{id}/branches/{rfc}/efirma',
      'GET /api/v3/users/{id}/branches/{rfc}/sync',
      'GET /dev/sat-portal',
      // RFC verification
      'GET /api/v3/clients/{client_id}/rfc_verification/challenge.json',
      'PUT /api/v3/clients/{client_id}/rfc_verification/efirma',
      // OAuth for third-party apps
      'POST /oauth/request_token.json',
      'GET /oauth/authorize.json',
      'POST /oauth/authorize.json',
      'POST /oauth/access_token.json',
      'GET /api/v3/oauth/profile.json',
      'GET /api/v3/users/{id}/oauth_grants.json',
      'DELETE /api/v3/users/{id}/oauth_grants/{grant_id}.json',
      // companies (collaborators, departments, invitations)
      'GET /api/v3/refund_account_types.json',
      'GET /api/v3/clients/{client_id}/areas.json',
      'POST /api/v3/clients/{client_id}/areas.json',
      'DELETE /api/v3/clients/{client_id}/areas/{area_id}.json',
      'GET /api/v3/clients/{client_id}/collaborators.json',
      'POST /api/v3/clients/{client_id}/collaborators.json',
      'PUT /api/v3/clients/{client_id}/collaborators/{id}.json',
      'DELETE /api/v3/clients/{client_id}/collaborators/{id}.json',
      'GET /api/v3/clients/{client_id}/collaborators/{id}/profile.json',
      'GET /api/v3/invitations/{token}.json',
      'PUT /api/v3/invitations/{token}/accept.json',
      'PUT /api/v3/invitations/{token}/sign_up.json',
      // per-diem (viáticos) events
      'GET /api/v3/clients/{client_id}/per_diem_events.json',
      'POST /api/v3/clients/{client_id}/per_diem_events.json',
      'GET /api/v3/clients/{client_id}/per_diem_events/options.json',
      'POST /api/v3/clients/{client_id}/per_diem_events/{id}/approve.json',
      'POST /api/v3/clients/{client_id}/per_diem_events/{id}/close.json',
      // company expense view
      'GET /tickets/colaborators',
      'GET /tickets/colaborator_stats',
      'PUT /tickets/mark_as_paid',
      'PUT /tickets/mark_as_rejected',
      // signed short-lived links to one file (no token in a URL)
      'POST /api/v3/file_links',
    ];
    expect(documented.sort()).toEqual(expected.sort());
    const login = doc.paths['/api/v2/login'].post;
    expect(login.requestBody.content['application/json'].schema.properties.user.properties).toHaveProperty('login');
    expect(doc.paths['/user_clients'].get.responses['200'].content['application/json'].schema.properties.response.items.properties).toHaveProperty(
      'diverza_client_id',
    );
    expect(doc.paths['/user_clients'].get.responses).toHaveProperty('401');
  });

  it('answers every documented GET path (so the document matches the app)', async () => {
    // Paths that need an id or a required parameter get real ones from the seeded data.
    await seedDemoMerchantTickets(h.database.db);
    const [ticket] = await h.database.db.select().from(merchantTickets).limit(1);
    const samples: Record<string, string> = {
      '/form/fields.json': '/form/fields.json?company[id]=3',
      '/api/v3/rfc/{rfc}': '/api/v3/rfc/XIQB891116QE4',
      '/dev/merchant-tickets/{short_name}': '/dev/merchant-tickets/autozone',
      '/api/v3/tickets/{ref}': `/api/v3/tickets/${ticket?.ref}`,
      '/api/v3/tickets/{ref}/qr.svg': `/api/v3/tickets/${ticket?.ref}/qr.svg`,
    };
    // Answered only for a real request of someone's (covered by tests/server/merchants and invoicing).
    const needsData = ['/api/v33/tickets/verify', '/api/v33/invoice_requests/{id}', '/api/v33/invoice_requests/{id}/pdf',
      '/oauth/authorize.json', '/api/v3/oauth/profile.json',
      '/api/v3/invitations/{token}.json']; // OAuth: covered by tests/server/oauth
    expect(ticket, 'demo merchant tickets are seeded').toBeDefined();
    for (const e of ENDPOINTS.filter((x) => x.method === 'get' && !x.auth && !needsData.includes(x.path))) {
      // The dev pages answer a browser on this machine only (http/dev-only.ts).
      const r = await h.call('GET', samples[e.path] ?? e.path, { direct: e.path.startsWith('/dev/') });
      expect(r.status, e.path).toBe(200);
    }
  });

  it('renders /api/docs as HTML without script', async () => {
    const r = await h.call('GET', '/api/docs');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.text).toContain('/api/v2/create_user');
    expect(r.text).toContain('Cuentas Claras API');
    expect(r.text).not.toMatch(/<script/i);
  });
});
