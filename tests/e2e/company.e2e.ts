// Companies (departments and collaborators): in real Chromium against the real server, a company on plan 4 (bought
// with the sandbox card 4242…) adds a department and invites a collaborator; the join link from the dev
// mailbox, opened in a fresh context, lets a new user sign up and land home; the manager then sees the
// collaborator 'Activo'. Screenshots at 360×780 and 1280×800 go to SHOTS_DIR when it is set.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { TXT } from '../../src/app/strings';
import { startApp, waitForServiceWorker, type Running } from './harness';
import { verifyRfcThroughSat } from './rfc-verify';

const SHOTS = process.env.SHOTS_DIR ?? '';
let app: Running;

beforeAll(async () => {
  app = await startApp(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {});
});
afterAll(async () => {
  await app?.stop();
});

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

describe('company: departments, invitation and join', () => {
  it('a company invites a collaborator who signs up from the e-mailed link', async () => {
    const manager = await app.signUp('empresa_jefa', 'ABC010101AB1', { name: 'Abarrotes Del Centro SA' });
    await app.buyPlan(manager.token, 4);
    // Invitations go out in the company's name only once its RFC is proved.
    await verifyRfcThroughSat(app, manager.token, 'ABC010101AB1');

    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, manager.username, manager.password);

    // Departamentos, chosen by the inner hash.
    await page.goto(`${app.url}/#/company#company-areas`);
    await expect.poll(() => page.getByRole('tab', { name: 'Departamentos' }).getAttribute('aria-selected'), { timeout: 20_000 }).toBe('true');
    await page.getByLabel('Nuevo departamento').fill('  VENTAS ');
    await page.getByRole('button', { name: 'Agregar' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Departamentos' }).getByText('Ventas', { exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Nuevo departamento').fill('ventas');
    await page.getByRole('button', { name: 'Agregar' }).click();
    await expect.poll(() => page.getByText(MSG.duplicatesSkipped).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('list', { name: 'Departamentos' }).getByRole('listitem').count()).toBe(1);
    await shot(page, 'company-areas-1280');

    // Colaboradores: the off-canvas form, checked in the spec's order, then the invitation.
    await page.getByRole('tab', { name: 'Colaboradores' }).click();
    await expect.poll(() => page.url()).toContain('#company-contributors');
    await page.getByRole('button', { name: 'Nuevo colaborador' }).click();
    const panel = page.getByRole('dialog', { name: 'Nuevo colaborador' });
    await expect.poll(() => panel.isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Enviar invitación' }).click();
    await expect.poll(() => panel.getByText(MSG.collaboratorEmailRequired).isVisible()).toBe(true);
    await panel.getByLabel('E-mail').fill(' Luis.Mtz@Ejemplo.mx ');
    await panel.getByLabel('Nombre', { exact: true }).fill('luis');
    await panel.getByLabel('Apellido', { exact: true }).fill('martínez');
    await panel.getByLabel('Departamento').selectOption({ label: 'Ventas' });
    await panel.getByLabel('Tarjeta corporativa (últimos 4 dígitos)').fill('4321');
    await panel.getByLabel('Tipo de cuenta para reembolso').selectOption({ label: 'CLABE interbancaria' });
    await panel.getByLabel('Cuenta para reembolso', { exact: true }).fill('032180000118359718');
    await expect.poll(() => panel.getByLabel('Cuenta para reembolso', { exact: true }).inputValue()).toBe('032 180 00011835971 8');
    await panel.getByRole('button', { name: 'Enviar invitación' }).click();
    await expect.poll(() => panel.getByText(MSG.clabeInvalid).isVisible()).toBe(true);
    await panel.getByLabel('Cuenta para reembolso', { exact: true }).fill('032180000118359719');
    await panel.getByLabel('Mensaje de la invitación').fill('¡Bienvenido al equipo de ventas!');
    await shot(page, 'company-form-1280');
    await panel.getByRole('button', { name: 'Enviar invitación' }).click();
    const row = page.getByRole('row', { name: /Luis Martínez/ });
    await expect.poll(() => row.isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => row.getByText('Invitado').isVisible()).toBe(true);
    await expect.poll(() => row.getByText('luis.mtz@ejemplo.mx').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await shot(page, 'company-1280');

    // The phone layout of the same screen.
    const phone = await app.newContext({ width: 360, height: 780 });
    await app.signIn(phone.page, manager.username, manager.password);
    await phone.page.goto(`${app.url}/#/company`);
    await expect.poll(() => phone.page.getByText('luis.mtz@ejemplo.mx').isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(phone.page, 'company-360');
    await phone.page.goto(`${app.url}/#/company#company-areas`);
    await expect.poll(() => phone.page.getByRole('list', { name: 'Departamentos' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(phone.page, 'company-areas-360');
    await phone.context.close();

    // 'Reenviar' sends a new link; the first one stops working.
    await row.getByRole('button', { name: /^Reenviar invitación/ }).click();
    await expect.poll(() => page.getByText(MSG.collaboratorInvited).first().isVisible()).toBe(true);

    // The e-mails in the dev mailbox (newest first) carry the company's text and the join link.
    const html = String((await app.api('/dev/mailbox')).body).replaceAll('&amp;', '&');
    expect(html).toContain('¡Bienvenido al equipo de ventas!');
    const links = [...html.matchAll(/https?:\/\/[^"<\s]+#\/join\?token=[\w-]+/g)].map((m) => new URL(m[0]).hash);
    const distinct = [...new Set(links)];
    expect(distinct).toHaveLength(2);
    const [hash, stale] = distinct as [string, string];
    const old = await app.api(`/api/v3/invitations/${stale.split('token=')[1]}.json`);
    expect(old.status).toBe(404);

    // A fresh browser, signed out, with a bad connection: the installed shell opens the link and says
    // it is offline, with 'Reintentar'; back online the invitation loads by itself.
    const guest = await app.newContext({ width: 360, height: 780 });
    await guest.page.goto(`${app.url}/#/login`);
    await waitForServiceWorker(guest.page);
    await guest.context.setOffline(true);
    await guest.page.goto(`${app.url}/${hash}`);
    const offlineAlert = guest.page.getByRole('alert').filter({ hasText: TXT.offline });
    await expect.poll(() => offlineAlert.isVisible(), { timeout: 20_000 }).toBe(true);
    await guest.page.getByRole('button', { name: TXT.retry }).click();
    await expect.poll(() => offlineAlert.isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(guest.page, 'join-offline-360');
    await guest.context.setOffline(false);
    await expect.poll(() => guest.page.getByRole('heading', { name: 'Te invitaron a una empresa' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => guest.page.getByText('ABC010101AB1').isVisible()).toBe(true);
    await expect.poll(() => guest.page.getByText('luis.mtz@ejemplo.mx').first().isVisible()).toBe(true);
    await shot(guest.page, 'join-360');
    // As in the sign-up wizard: a taken name is said while typing, and the name shows as it will be saved.
    await guest.page.getByLabel('Usuario').fill(manager.username);
    await expect.poll(() => guest.page.getByText('Ese nombre de usuario ya está registrado. Elige otro.').isVisible(), { timeout: 20_000 }).toBe(true);
    await guest.page.getByLabel('Usuario').fill('Luis_Mtz');
    await expect.poll(() => guest.page.locator('.username-hint__name').textContent(), { timeout: 20_000 }).toBe('luis_mtz');
    await expect.poll(() => guest.page.getByText('Está libre', { exact: true }).isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(guest.page, 'join-username-360');
    await guest.page.getByLabel('Contraseña', { exact: true }).fill('Clave-de-Luis-2026');
    await guest.page.getByLabel('Confirma tu contraseña').fill('Clave-de-Luis-2026');
    await guest.page.getByLabel('RFC', { exact: true }).fill('MAML850505AB3');
    await guest.page.getByLabel('Nombre', { exact: true }).fill('Luis');
    await guest.page.getByLabel('Apellidos').fill('Martínez');
    await guest.page.getByRole('button', { name: 'Crear cuenta y unirme' }).click();
    await guest.page.waitForURL((u) => u.hash === '#/' || u.hash === '#/home', { timeout: 30_000 });
    // Home, signed in as the new user: the session is theirs and their tax account is loaded.
    await expect.poll(() => guest.page.getByRole('heading', { name: 'Te invitaron a una empresa' }).count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => guest.page.locator('main#main').count(), { timeout: 20_000 }).toBe(1);
    await shot(guest.page, 'join-home-360');
    const signIn = await app.api('/api/v2/login', { method: 'POST', body: JSON.stringify({ user: { login: 'luis_mtz', password: 'Clave-de-Luis-2026' } }) });
    expect(signIn.status).toBe(200);
    const own = await app.api('/user_clients', { token: (signIn.body as { response: { token: string } }).response.token });
    expect((own.body as { response: { rfc: string }[] }).response.map((a) => a.rfc)).toEqual(['MAML850505AB3']);

    // The link works once.
    const again = await app.newContext({ width: 1280, height: 800 });
    await again.page.goto(`${app.url}/${hash}`);
    await expect.poll(() => again.page.getByRole('alert').getByText(MSG.invalidPageToken).isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(again.page, 'join-invalid-1280');
    await again.context.close();
    await guest.context.close();

    // The manager sees the collaborator active, with the RFC they joined with.
    await page.goto(`${app.url}/#/company#company-contributors`);
    await page.reload();
    await expect.poll(() => page.getByRole('row', { name: /Luis Martínez/ }).getByText('Activo').isVisible(), { timeout: 20_000 }).toBe(true);
    await context.close();
  });

  it("on a persona física's RFC, offers adding a company RFC, then switching to it in one tap", async () => {
    const person = await app.signUp('persona_sola', 'GODE561231GR8', { first_name: 'Ana', last_name: 'Gómez' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, person.username, person.password);
    await page.goto(`${app.url}/#/company`);
    const notice = page.getByRole('region', { name: 'Solo para empresas' });
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.getByRole('link', { name: 'Añadir RFC' }).getAttribute('href')).toBe('/#/add-client');
    await shot(page, 'company-persona-360');

    // With a company account too, the notice names it; a tap selects it and the screen is the company's.
    const company = await app.api('/new_client', { method: 'POST', token: person.token, body: JSON.stringify({ client: { rfc: 'GOM010101AB1', name: 'Gómez Consultores SC' }, ubication_data: {} }) });
    expect(company.status).toBe(200);
    await page.reload();
    await notice.getByRole('button', { name: 'Usar Gómez Consultores SC' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Función Premium' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await notice.count()).toBe(0);
    await context.close();
  });

  it('shows the advert without the plan; a registered user signs in from the link and accepts with an RFC', async () => {
    const manager = await app.signUp('empresa_sinplan', 'XYZ020202XY2', { name: 'Sin Plan SA' });
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, manager.username, manager.password);
    await page.goto(`${app.url}/#/company`);
    await expect.poll(() => page.getByRole('heading', { name: 'Función Premium' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await context.close();

    // After buying the plan: an invitation to the first test's manager (a registered e-mail) opened on a desktop (sign-in step for a registered e-mail).
    await app.buyPlan(manager.token, 4);
    await verifyRfcThroughSat(app, manager.token, 'XYZ020202XY2');
    const accounts = await app.api('/user_clients', { token: manager.token });
    const clientId = (accounts.body as { response: { diverza_client_id: number }[] }).response[0]!.diverza_client_id;
    const areas = await app.api(`/api/v3/clients/${clientId}/areas.json`, { method: 'POST', token: manager.token, body: JSON.stringify({ area: 'Compras' }) });
    const areaId = (areas.body as { response: { id: number }[] }).response[0]!.id;
    const invited = await app.api(`/api/v3/clients/${clientId}/collaborators.json`, {
      method: 'POST',
      token: manager.token,
      body: JSON.stringify({
        invitation: { email: 'empresa_jefa@ejemplo.mx', first_name: 'Jefa', last_name: 'Otra', area_id: areaId, corporate_card: '1111', account_type_for_refunds_id: 3, account_for_refunds: '5512345678', authorizer_id: null },
        email_text: '',
      }),
    });
    expect(invited.status).toBe(201);
    const html = String((await app.api('/dev/mailbox')).body).replaceAll('&amp;', '&');
    const links = [...html.matchAll(/#\/join\?token=[\w-]+/g)].map((m) => m[0]);
    const guest = await app.newContext({ width: 1280, height: 800 });
    // The mailbox lists the newest first.
    await guest.page.goto(`${app.url}/${links[0]}`);
    await expect.poll(() => guest.page.getByText('Inicia sesión para aceptar la invitación.').isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(guest.page, 'join-1280');
    // Sign in, choose the RFC (the only one is preselected), accept, land home.
    await guest.page.getByLabel('Contraseña', { exact: true }).fill('Clave-de-prueba-2026');
    await guest.page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => guest.page.getByLabel('RFC con el que te unes').inputValue(), { timeout: 20_000 }).toBe('ABC010101AB1');
    await guest.page.getByRole('button', { name: 'Aceptar invitación' }).click();
    await guest.page.waitForURL((u) => u.hash === '#/' || u.hash === '#/home', { timeout: 30_000 });
    const list = await app.api(`/api/v3/clients/${clientId}/collaborators.json`, { token: manager.token });
    expect((list.body as { response: { email: string; status: string; rfc: string | null }[] }).response).toEqual([
      expect.objectContaining({ email: 'empresa_jefa@ejemplo.mx', status: 'activo', rfc: 'ABC010101AB1', account_for_refunds: '55 1234 5678' }),
    ]);
    await guest.context.close();
  });
});
