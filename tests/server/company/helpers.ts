// Shared set-up of the company API tests: a manager with a company tax account on plan 4 (or another
// plan), a department, and a valid collaborator body.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { clients } from '../../../src/server/db/schema';
import type { Harness } from '../helpers/harness';
import { markRfcVerifiedForTest } from '../helpers/rfc-verified';

/** A real, valid CLABE (check digit 9) and the same with a wrong check digit. */
export const CLABE = '032180000118359719';
export const BAD_CLABE = '032180000118359718';

export interface Manager {
  token: string;
  userId: number;
  clientId: number;
  username: string;
  password: string;
}

/** The company's RFC starts proved (invitations need it), unless `verified: false`. */
export async function companyManager(h: Harness, planId = 4, rfc = 'ABC010101AB1', name = 'Abarrotes Del Centro SA', opts: { verified?: boolean } = {}): Promise<Manager> {
  const u = await h.signUp('jefe');
  const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc, name }, ubication_data: { street: 'Av. Juárez', external_number: '10', city: 'Puebla', state: 'Puebla', zip_code: '72000' } } });
  expect(made.status).toBe(200);
  const clientId = made.json.response.diverza_client_id as number;
  await h.database.db.update(clients).set({ planId }).where(eq(clients.id, clientId));
  if (opts.verified !== false) await markRfcVerifiedForTest(h.database.db, clientId);
  return { token: u.token, userId: u.userId, clientId, username: u.username, password: u.password };
}

export async function addDepartment(h: Harness, m: Manager, area = 'ventas'): Promise<number> {
  const r = await h.call('POST', `/api/v3/clients/${m.clientId}/areas.json`, { token: m.token, body: { area } });
  expect(r.status).toBe(200);
  const found = (r.json.response as { id: number; area: string }[]).find((a) => a.area.toLowerCase() === area.trim().toLowerCase());
  return found!.id;
}

export function collaboratorBody(areaId: number, over: Record<string, unknown> = {}) {
  return {
    invitation: {
      email: '  Ana.Lopez@Example.com ',
      first_name: 'ana  maría',
      last_name: 'lópez',
      area_id: areaId,
      corporate_card: '1234',
      account_type_for_refunds_id: 1,
      account_for_refunds: CLABE,
      authorizer_id: null,
      ...over,
    },
    email_text: 'Bienvenida al equipo de ventas.',
    company_name: 'Abarrotes del Centro',
  };
}

/** The join token from a link in an e-mail text. */
export function tokenFromText(text: string): string {
  const m = /#\/join\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`sin enlace de invitación en: ${text}`);
  return m[1]!;
}
