// E2E set-up for what needs a proved RFC (company invitations): the demo's simulated SAT portal gets an
// account for the RFC (the loopback-only dev tool), and the CIEC check proves it, as a user would.
import type { Running } from './harness';

export const E2E_CIEC = 'Prueba2026';

export async function openSatPortalAccount(app: Running, rfc: string, ciec = E2E_CIEC): Promise<void> {
  // Multipart, as the dev page's own form sends it (app.api would label the body JSON).
  const form = new FormData();
  form.set('rfc', rfc);
  form.set('ciec', ciec);
  const opened = await fetch(`${app.url}/dev/sat-portal`, { method: 'POST', body: form });
  if (opened.status !== 200) throw new Error(`/dev/sat-portal ${opened.status}: ${await opened.text()}`);
}

export async function verifyRfcThroughSat(app: Running, token: string, rfc: string): Promise<void> {
  await openSatPortalAccount(app, rfc);
  const r = await app.api('/api/v1/AuthenticateSATPortal', { method: 'POST', token, body: JSON.stringify({ rfc, clave_ciec: E2E_CIEC }) });
  if (r.status !== 200) throw new Error(`AuthenticateSATPortal ${r.status}: ${JSON.stringify(r.body)}`);
}
