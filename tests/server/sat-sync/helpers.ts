// Shared set-up of the SAT sync tests: a signed-up user with a persona física account (the demo RFC,
// which the simulated portal knows) on a plan with SincronizacionSAT, and the test e.firma files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { DEMO_RFCS } from '../../../src/server/db/demo-accounts';
import { clients } from '../../../src/server/db/schema';
import type { Harness } from '../helpers/harness';

export const PERSONA = DEMO_RFCS.persona.rfc;
export const FIEL_PASSWORD = '12345678a';

const shared = (name: string) => readFileSync(new URL(`../../fixtures/csd/${name}`, import.meta.url));
const own = (name: string) => readFileSync(fileURLToPath(new URL(`./fiel/${name}`, import.meta.url)));

export const EFIRMA = {
  /** A FIEL of the persona física (self-made, see fiel/README.md). */
  persona: { cer: own('XIQB891116QE4.fiel.cer'), key: own('XIQB891116QE4.fiel.key') },
  /** SAT's test FIEL of another RFC (EKU9003173C9). */
  otherRfc: { cer: shared('EKU9003173C9.fiel.cer'), key: shared('EKU9003173C9.fiel.key') },
  /** SAT's test CSD of the persona física: a sello, not an e.firma. */
  csd: { cer: shared('XIQB891116QE4.csd.cer'), key: shared('XIQB891116QE4.csd.key') },
};

export async function personWithPlan(h: Harness, planId = 2): Promise<{ userId: number; token: string; email: string; clientId: number }> {
  const u = await h.signUp('sat');
  const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: PERSONA, first_name: 'BERENICE', last_name: 'XIMO QUEZADA' } } });
  if (made.status !== 200) throw new Error(`new_client: ${made.status} ${made.text}`);
  const clientId = made.json.response.diverza_client_id as number;
  await h.database.db.update(clients).set({ planId, zipCode: DEMO_RFCS.persona.zipCode, taxRegime: DEMO_RFCS.persona.taxRegime }).where(eq(clients.id, clientId));
  return { userId: u.userId, token: u.token, email: u.email, clientId };
}

export function efirmaForm(files: { cer: Uint8Array; key: Uint8Array }, password: string): FormData {
  const form = new FormData();
  form.set('cer', new Blob([new Uint8Array(files.cer)]), 'fiel.cer');
  form.set('key', new Blob([new Uint8Array(files.key)]), 'fiel.key');
  form.set('password', password);
  return form;
}

/** A multipart PUT straight to the app (the harness's call() sends JSON). */
export async function putForm(h: Harness, path: string, token: string, form: FormData): Promise<{ status: number; json: any; text: string }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- envelopes
  const res = await h.app.request(path, { method: 'PUT', headers: { 'x-access-token': token, 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` }, body: form });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
}
