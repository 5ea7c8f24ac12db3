// Links we send (password reset, company invitation, a merchant ticket's QR) start with PUBLIC_URL, or in
// the demo with the address the server listens on: never with the request's Host or X-Forwarded-Host,
// which whoever asks for a reset of someone else's account chooses.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, mailMessages } from '../../../src/server/db/schema';
import { rotateMerchantKey } from '../../../src/server/merchants/merchant-key';
import { addDepartment, collaboratorBody, companyManager } from '../company/helpers';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

/** The request as an attacker sends it: its Host (the URL node-server builds) and the proxy headers (TRUST_PROXY is on). */
const EVIL = 'http://evil.example';
const EVIL_HEADERS = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

async function newestMailTo(h: Harness, to: string): Promise<string> {
  const [m] = await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, to)).orderBy(desc(mailMessages.id)).limit(1);
  if (!m) throw new Error(`sin correo para ${to}`);
  return `${m.text}\n${m.html ?? ''}`;
}

describe.each(DRIVERS)('links in e-mails and QR codes on %s', (driver) => {
  // [label, harness config, the base every link must start with]
  const setups = [
    ['the demo (no PUBLIC_URL: the address it listens on)', {}, 'http://localhost:8080/'],
    ['PUBLIC_URL', { publicUrl: 'https://app.example.mx' }, 'https://app.example.mx/'],
  ] as const;
  const harnesses: Harness[] = [];
  beforeAll(async () => {
    for (const [, config] of setups) harnesses.push(await createHarness(driver, config));
  }, 240_000);
  afterAll(async () => Promise.all(harnesses.map((h) => h.close())));

  describe.each(setups.map((s, i) => [s[0], i, s[2]] as const))('with %s', (_label, index, base) => {
    const h = () => harnesses[index]!;

    it('a password-reset link', async () => {
      const r = await h().call('POST', `${EVIL}/api/v2/password_reset`, { body: { user: { login: 'demo' } }, headers: EVIL_HEADERS });
      expect(r.status).toBe(200);
      const mail = await newestMailTo(h(), 'demo@cuentasclaras.mx');
      expect(mail).toMatch(new RegExp(`${base.replaceAll('.', '\\.')}#/reset-password\\?token=[\\w-]+`));
      expect(mail).not.toContain('evil.example');
    });

    it('a company invitation link', async () => {
      const m = await companyManager(h());
      // Only an account that proved its RFC sends invitations.
      await h().database.db.update(clients).set({ rfcVerifiedAt: new Date(), rfcVerifiedBy: 'sat' }).where(eq(clients.id, m.clientId));
      const area = await addDepartment(h(), m, 'ventas');
      const r = await h().call('POST', `${EVIL}/api/v3/clients/${m.clientId}/collaborators.json`, {
        token: m.token,
        body: collaboratorBody(area, { email: 'invitada@example.com' }),
        headers: EVIL_HEADERS,
      });
      expect(r.status).toBe(201);
      const mail = await newestMailTo(h(), 'invitada@example.com');
      expect(mail).toContain(`${base}#/join?token=`);
      expect(mail).not.toContain('evil.example');
    });

    it("a merchant ticket's QR link", async () => {
      const key = (await rotateMerchantKey(h().database.db, 'autozone')) as string;
      const r = await h().call('POST', `${EVIL}/api/v3/merchants/autozone/tickets`, {
        body: {
          ticket_number: '880011',
          issued_at: new Date(Date.now() - 3600_000).toISOString(),
          venue: 'San Nicolás',
          forma_pago: '04',
          items: [{ description: 'Filtro de aire', quantity: 1, unit_price: '116.00', clave_prod_serv: '15121501', clave_unidad: 'H87' }],
        },
        headers: { ...EVIL_HEADERS, 'X-Merchant-Key': key },
      });
      expect(r.status).toBe(201);
      expect(r.json.response.qr.startsWith(base)).toBe(true);
    });
  });
});
