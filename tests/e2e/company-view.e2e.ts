// The company expense view end to end, in real Chromium against the real server: a company on plan 4 (bought with the
// sandbox card 4242…) invites a collaborator, who joins from the e-mailed link, captures a spending OFFLINE
// and goes back online; the manager sees it in 'Gastos por colaborador de {month}' and approves it; the
// collaborator's dashboard shows it 'Aprobado'. Then a rejection with a reason, which the collaborator sees.
// The list comes before the charts and names people as invited; the collaborator's dashboard names her
// company, and her Empresa screens explain they are the company's.
// Screenshots at 360×780 and 1280×800 go to SHOTS_DIR when it is set.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyViewTitle } from '../../src/domain/company-view';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { newId } from '../../src/domain/ids';
import { MSG } from '../../src/domain/messages';
import { manualTicketPayload, todayInput } from '../../src/domain/spending-form';
import type { Ticket } from '../../src/domain/ticket';
import { startApp, waitForServiceWorker, type Running } from './harness';
import { verifyRfcThroughSat } from './rfc-verify';

const SHOTS = process.env.SHOTS_DIR ?? '';
const COMPANY_RFC = 'CVE010101AB1';
const COLLAB_RFC = 'RUPA850505AB3';
let app: Running;

beforeAll(async () => {
  app = await startApp(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {});
});
afterAll(async () => {
  await app?.stop();
});

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  // The donuts' code loads lazily: wait until they are drawn.
  await expect.poll(() => page.locator('.donut__placeholder').count(), { timeout: 20_000 }).toBe(0);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

async function addSpending(page: Page, amount: string, category: string, note: string) {
  await page.getByRole('button', { name: 'Agregar gasto' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Monto', { exact: true }).fill(amount);
  await dialog.getByLabel('Categoría').selectOption({ label: category });
  await dialog.getByLabel('Nota', { exact: true }).fill(note);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

describe('company expense view: approve and reject a collaborator spending', () => {
  it('an offline spending of a collaborator is approved by the manager and seen approved; a rejection shows its reason', async () => {
    const { year, month } = mexicoCityDate();
    const manager = await app.signUp('gastos_jefa', COMPANY_RFC, { name: 'Control De Gastos SA' });
    const clientId = await app.buyPlan(manager.token, 4);
    await verifyRfcThroughSat(app, manager.token, COMPANY_RFC);
    const areas = await app.api(`/api/v3/clients/${clientId}/areas.json`, { method: 'POST', token: manager.token, body: JSON.stringify({ area: 'Ventas' }) });
    const areaId = (areas.body as { response: { id: number }[] }).response[0]!.id;
    const invited = await app.api(`/api/v3/clients/${clientId}/collaborators.json`, {
      method: 'POST',
      token: manager.token,
      body: JSON.stringify({
        invitation: { email: 'paula.ruiz@ejemplo.mx', first_name: 'Paula', last_name: 'Ruiz', area_id: areaId, corporate_card: '4321', account_type_for_refunds_id: 3, account_for_refunds: '5512345678', authorizer_id: null },
        email_text: 'Registra tus gastos en Cuentas Claras.',
      }),
    });
    expect(invited.status).toBe(201);

    // The collaborator joins from the e-mailed link (dev mailbox), signing up, on a phone.
    const html = String((await app.api('/dev/mailbox')).body).replaceAll('&amp;', '&');
    const link = [...html.matchAll(/#\/join\?token=[\w-]+/g)].map((m) => m[0])[0]!;
    // Its HTML part: the branded layout with one button, to the same link.
    const htmlPart = /href="(\/dev\/mailbox\/\d+\/html)"/.exec(html)![1]!;
    const branded = String((await app.api(htmlPart)).body).replaceAll('&amp;', '&');
    expect([...branded.matchAll(/>Aceptar la invitación<\/a>/g)]).toHaveLength(1);
    expect(branded).toContain(link);
    const collab = await app.newContext({ width: 360, height: 780 });
    await collab.page.goto(`${app.url}/${link}`);
    await expect.poll(() => collab.page.getByRole('heading', { name: 'Te invitaron a una empresa' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await collab.page.getByLabel('Usuario').fill('paula_ruiz');
    await collab.page.getByLabel('Contraseña', { exact: true }).fill('Clave-de-Paula-2026');
    await collab.page.getByLabel('Confirma tu contraseña').fill('Clave-de-Paula-2026');
    await collab.page.getByLabel('RFC', { exact: true }).fill(COLLAB_RFC);
    await collab.page.getByLabel('Nombre', { exact: true }).fill('Paula');
    await collab.page.getByLabel('Apellidos').fill('Ruiz');
    await collab.page.getByRole('button', { name: 'Crear cuenta y unirme' }).click();
    await collab.page.waitForURL((u) => u.hash === '#/' || u.hash === '#/home', { timeout: 30_000 });
    await expect.poll(() => collab.page.getByRole('button', { name: 'Agregar gasto' }).first().isVisible(), { timeout: 30_000 }).toBe(true);
    // Her dashboard says which company she belongs to.
    const membership = collab.page.getByRole('region', { name: 'Tu empresa' });
    await expect.poll(() => membership.textContent(), { timeout: 20_000 }).toContain('Colaboras con Control De Gastos SA');
    expect(await membership.textContent()).toContain('Departamento: Ventas');
    await shot(collab.page, 'collaborator-membership-360');
    await waitForServiceWorker(collab.page);
    const login = await app.api('/api/v2/login', { method: 'POST', body: JSON.stringify({ user: { login: 'paula_ruiz', password: 'Clave-de-Paula-2026' } }) });
    const collabToken = (login.body as { response: { token: string } }).response.token;
    const own = async (): Promise<Ticket[]> => {
      const r = await app.api(`/api/v2/tickets?usuario[rfc_owner]=${COLLAB_RFC}&date[year]=${year}&date[month]=${month}`, { token: collabToken });
      return (r.body as { response: { tickets: Ticket[] } }).response.tickets;
    };

    // A spending captured offline, then back online: the outbox delivers it.
    await collab.context.setOffline(true);
    await addSpending(collab.page, '345.60', 'Transporte', 'Taxi a cliente');
    await expect.poll(() => collab.page.getByText('Pendiente de envío', { exact: true }).count(), { timeout: 10_000 }).toBe(1);
    expect(await own()).toHaveLength(0);
    await collab.context.setOffline(false);
    await collab.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(async () => (await own()).length, { timeout: 90_000, interval: 1000 }).toBe(1);

    // The manager's view of the month: the spending with the collaborator and department; approve it.
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, manager.username, manager.password);
    await page.goto(`${app.url}/#/company-view`);
    await expect.poll(() => page.getByRole('heading', { name: companyViewTitle(month) }).isVisible(), { timeout: 20_000 }).toBe(true);
    const taxi = page.getByRole('row', { name: /345\.60/ });
    await expect.poll(() => taxi.isVisible(), { timeout: 20_000 }).toBe(true);
    // By the name the company invited her with, not her username.
    await expect.poll(() => taxi.getByText('Paula Ruiz').isVisible()).toBe(true);
    expect(await taxi.getByText('paula_ruiz').count()).toBe(0);
    // The work first: the receipts to approve above the charts.
    const listTop = (await page.getByRole('heading', { name: 'Comprobantes de colaboradores' }).boundingBox())!.y;
    await expect.poll(() => page.getByRole('heading', { name: 'Gasto aprobado por mes' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect((await page.getByRole('heading', { name: 'Gasto aprobado por mes' }).boundingBox())!.y).toBeGreaterThan(listTop);
    await expect.poll(() => taxi.getByText('Ventas').isVisible()).toBe(true);
    await taxi.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Aprobar' }).click();
    await expect.poll(() => page.getByText(MSG.ticketsApproved).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByRole('row', { name: /345\.60/ }).locator('.review-badge__word').textContent(), { timeout: 20_000 }).toBe('Aprobado');
    // The charts now count it (approved spending of the month, department 'Ventas').
    await expect.poll(() => page.getByRole('region', { name: 'Gasto aprobado por departamento' }).getByText('Ventas').first().isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(page, 'company-view-approved-1280');

    // The collaborator's dashboard shows it approved after the next sync.
    await collab.page.reload();
    await expect.poll(() => collab.page.locator('.review-badge__word').first().textContent(), { timeout: 30_000 }).toBe('Aprobado');
    expect((await own())[0]).toMatchObject({ ticket_status_name: 'aprobado', review: { decision: 'aprobado', reason: null } });

    // A second spending (online), rejected with a reason the collaborator sees on the ticket.
    await addSpending(collab.page, '80', 'Alimentos y bebidas', 'Comida sin factura');
    await expect.poll(async () => (await own()).length, { timeout: 60_000, interval: 1000 }).toBe(2);
    await page.reload();
    const food = page.getByRole('row', { name: /80\.00/ });
    await expect.poll(() => food.isVisible(), { timeout: 20_000 }).toBe(true);
    await food.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Rechazar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rechazar comprobantes' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Rechazar' }).click();
    await expect.poll(() => dialog.getByText(MSG.rejectionReasonRequired).isVisible()).toBe(true);
    await dialog.getByLabel(MSG.rejectionReasonLabel).fill('Falta la factura de la comida');
    await shot(page, 'company-view-reject-1280');
    await dialog.getByRole('button', { name: 'Rechazar' }).click();
    await expect.poll(() => page.getByText(MSG.ticketsRejected).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByRole('row', { name: /80\.00/ }).getByText('Falta la factura de la comida').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await shot(page, 'company-view-1280');

    await collab.page.reload();
    await expect.poll(() => collab.page.getByText('Falta la factura de la comida').first().isVisible(), { timeout: 30_000 }).toBe(true);
    await shot(collab.page, 'collaborator-dashboard-360');
    // Her Empresa menu explains whose screens these are, instead of a plan advert.
    for (const route of ['company', 'company-view', 'per-diem']) {
      await collab.page.goto(`${app.url}/#/${route}`);
      await expect.poll(() => collab.page.getByRole('heading', { name: 'Eres colaborador de Control De Gastos SA' }).isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await collab.page.getByText('Función Premium').count()).toBe(0);
    }
    await shot(collab.page, 'collaborator-empresa-360');
    const food2 = (await own()).find((t) => t.amount === '80.00');
    expect(food2).toMatchObject({ ticket_status_name: 'rechazado', review: { decision: 'rechazado', reason: 'Falta la factura de la comida' } });

    // The collaborator may not open the manager's view of the company (403 from the API).
    const refused = await app.api(`/tickets/colaborators?usuario[rfc_owner]=${COMPANY_RFC}&date[year]=${year}&date[month]=${month}`, { token: collabToken });
    expect(refused.status).toBe(403);

    // The manager's view on a phone.
    const phone = await app.newContext({ width: 360, height: 780 });
    await app.signIn(phone.page, manager.username, manager.password);
    await phone.page.goto(`${app.url}/#/company-view`);
    await expect.poll(() => phone.page.getByText('Falta la factura de la comida').isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(phone.page, 'company-view-360');
    await phone.context.close();

    // More tickets than a page (50): select the page, then the whole month, and approve them all at once.
    for (let i = 0; i < 55; i++) {
      const form = { kind: 'expense' as const, amount: `${10 + i}.00`, date: todayInput(), category: '1', currency: 'MXN', nationalAmount: '', note: '' };
      const made = await app.api('/form/ticket_create?format=json', { method: 'POST', token: collabToken, body: JSON.stringify(manualTicketPayload(form, COLLAB_RFC, newId())) });
      expect(made.status).toBe(200);
    }
    await page.reload();
    await expect.poll(() => page.getByText('Página 1 de 2 · 57 comprobantes').isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('checkbox', { name: 'Seleccionar todos' }).check();
    const line = page.locator('.company-view__month-selection');
    await expect.poll(() => line.textContent()).toContain('Se seleccionaron los 50 comprobantes de esta página.');
    await line.getByRole('button', { name: 'Seleccionar los 57 comprobantes del mes' }).click();
    await expect.poll(() => line.textContent()).toContain('Se seleccionaron los 57 comprobantes del mes.');
    await expect.poll(() => page.getByText('57 seleccionados').isVisible()).toBe(true);
    // Paging keeps the whole month selected.
    await page.getByRole('navigation', { name: 'Páginas' }).getByRole('button', { name: 'Siguiente' }).click();
    await expect.poll(() => page.getByText('Página 2 de 2 · 57 comprobantes').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByText('57 seleccionados').isVisible()).toBe(true);
    await shot(page, 'company-view-whole-month-1280');
    await page.getByRole('button', { name: 'Aprobar' }).click();
    await expect.poll(() => page.getByText(MSG.ticketsApproved).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(async () => (await own()).filter((t) => t.ticket_status_name === 'aprobado').length, { timeout: 20_000 }).toBe(57);
    await expect.poll(() => page.getByText('0 seleccionados').isVisible()).toBe(true);

    // 'Ver datos' of the active collaborator (spec §6): the profile and the accepted RFC's tax data.
    await page.goto(`${app.url}/#/company`);
    await page.getByRole('button', { name: 'Ver datos de Paula Ruiz' }).click();
    const data = page.getByRole('dialog', { name: 'Datos de Paula Ruiz' });
    await expect.poll(() => data.getByText(COLLAB_RFC).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => data.getByText('paula_ruiz').isVisible()).toBe(true);
    await page.waitForFunction(() => document.getAnimations().every((x) => x.playState !== 'running'));
    await shot(page, 'collaborator-data-1280');
    await data.getByRole('button', { name: 'Cerrar' }).last().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await context.close();
    await collab.context.close();
  }, 300_000);
});
