import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../../src/domain/categories';
import { PLANS } from '../../../src/domain/plans';
import { seed } from '../../../src/server/seed';
import { clients, merchantTickets, users } from '../../../src/server/db/schema';
import { seedDemoMerchantTickets } from '../../../src/server/merchants/demo-tickets';
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
    // Which paths: tests/server/openapi checks the document against the routes the app registers.
    expect(documented).toContain('POST /api/v2/login');
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
      '/api/v2/username_available': '/api/v2/username_available?username=lupita.gomez',
    };
    // Answered only for a real request of someone's (covered by tests/server/merchants and invoicing).
    const needsData = ['/api/v33/tickets/verify', '/api/v33/invoice_requests/{id}', '/api/v33/invoice_requests/{id}/pdf',
      '/oauth/authorize.json', '/api/v3/oauth/profile.json',
      '/api/v3/invitations/{token}.json', // OAuth: covered by tests/server/oauth
      '/dev/mailbox/{id}/attachments/{n}', '/dev/mailbox/{id}/html'];
    expect(ticket, 'demo merchant tickets are seeded').toBeDefined();
    const doc = (await h.call('GET', '/api/openapi.json')).json;
    const publicGets = Object.entries(doc.paths as Record<string, { get?: { security?: unknown } }>)
      .filter(([path, ops]) => ops.get && !ops.get.security && !needsData.includes(path))
      .map(([path]) => path);
    for (const path of publicGets) {
      // The dev pages answer a browser on this machine only (http/dev-only.ts).
      const r = await h.call('GET', samples[path] ?? path, { direct: path.startsWith('/dev/') });
      expect(r.status, path).toBe(200);
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
