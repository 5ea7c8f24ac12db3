// SAT sync in real Chromium against the real server: (a) a free persona sees the
// premium advert; 'Iniciar contacto' opens the chat with the prefilled message and support's reply from
// the inbox arrives in the widget. (b) After buying the professional plan (sandbox card 4242…) the user
// saves the SAT password: the §5 checks, a wrong one (§8 SAT 400), the right one (the simulated portal's
// CIEC for the demo persona RFC) → the §8 success text, 'Conexión activa', and the previous day's CFDI
// arrive as tickets. Screenshots at 360×780 and 1280×800 go to SHOTS_DIR when it is set.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Running } from './harness';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { MSG } from '../../src/domain/messages';
import { premiumChatMessage } from '../../src/app/feature-gates/premium-advert';

const SUPPORT_PASSWORD = 'Soporte-de-prueba-2026';
const SHOTS = process.env.SHOTS_DIR ?? '';
/** The demo persona RFC: the simulated SAT portal is seeded with an account for it (README, /dev/sat-portal). */
const PERSONA_RFC = 'XIQB891116QE4';
const PORTAL_CIEC = 'XIQB2026';
/** SAT's public test FIELs (another RFC's) and the persona's own test FIEL (made by the server's SAT sync tests). */
const SHARED_CSD = fileURLToPath(new URL('../fixtures/csd', import.meta.url));
const PERSONA_FIEL = 'tests/server/sat-sync/fiel/XIQB891116QE4.fiel';
const FIEL_PASSWORD = '12345678a';
let app: Running;

beforeAll(async () => {
  app = await startApp({ SUPPORT_PASSWORD });
});
afterAll(async () => {
  await app?.stop();
});

async function openSync(page: Page) {
  // Phones: the side menu is a drawer behind 'Abrir menú'.
  const menuButton = page.getByRole('button', { name: 'Abrir menú' });
  await expect.poll(() => page.getByRole('link', { name: 'Dashboard' }).filter({ visible: true }).count().then(async (n) => n > 0 || (await menuButton.isVisible()))).toBe(true);
  if (await menuButton.isVisible()) await menuButton.click();
  await page.getByRole('link', { name: 'Sincronización SAT' }).filter({ visible: true }).first().click();
  await page.waitForURL((u) => u.hash.startsWith('#/sync'));
  await expect.poll(() => page.getByRole('heading', { name: 'Sincronización SAT', level: 1 }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('dialog', { name: 'Menú' }).count()).toBe(0);
}

/** A full-page screenshot without earlier screens' toasts, once nothing is loading. */
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const close of await page.locator('.toasts').getByRole('button', { name: 'Cerrar' }).all()) await close.click();
  await expect.poll(() => page.locator('.toast').count()).toBe(0);
  await expect.poll(() => page.locator('[aria-busy="true"], .skeleton').count()).toBe(0);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function buyPlan(page: Page, card: string, planName: string) {
  await page.goto(`${app.url}/#/plans`);
  await page.getByRole('article', { name: card }).getByRole('button', { name: 'Seleccionar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pago con tarjeta' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await dialog.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
  await dialog.getByLabel('Vencimiento (MM/AA)').fill('12/30');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: /^Pagar/ }).click();
  await page.waitForURL((u) => u.hash.startsWith('#/subscription'), { timeout: 30_000 });
  await expect.poll(() => page.getByText(planName, { exact: true }).first().isVisible()).toBe(true);
}

describe('SAT sync', () => {
  it('free plan: the premium advert; Iniciar contacto opens the chat prefilled and support answers', async () => {
    const user = await app.signUp('sync_free', 'GODE561231GR8', { first_name: 'Diego', last_name: 'Gómez' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, user.username, user.password);
    await openSync(page);
    await expect.poll(() => page.getByRole('heading', { name: 'Función Premium' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Contraseña del SAT').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Ver mi plan' }).getAttribute('href')).toBe('/#/subscription');
    await shot(page, 'sync-advert-360');

    await page.getByRole('button', { name: 'Iniciar contacto' }).click();
    const panel = page.getByRole('dialog', { name: 'Soporte' });
    const message = premiumChatMessage('SincronizacionSAT');
    await expect.poll(() => panel.getByLabel('Tu mensaje').inputValue()).toBe(message);
    await panel.getByRole('button', { name: 'Enviar' }).click();
    await expect.poll(() => panel.getByRole('listitem').filter({ hasText: message }).isVisible()).toBe(true);

    const staff = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(staff.page, 'soporte', SUPPORT_PASSWORD);
    await staff.page.goto(`${app.url}/#/support`);
    const item = staff.page.getByRole('button', { name: new RegExp(`${user.username}@ejemplo\\.mx`) });
    await expect.poll(() => item.isVisible()).toBe(true);
    await item.click();
    await expect.poll(() => staff.page.getByRole('list', { name: 'Mensajes' }).getByText(message).isVisible()).toBe(true);
    await staff.page.getByLabel('Respuesta').fill('¡Hola Diego! El plan Profesional incluye la sincronización con el SAT.');
    await staff.page.getByRole('button', { name: 'Responder' }).click();

    await expect.poll(() => panel.getByText('¡Hola Diego! El plan Profesional incluye la sincronización con el SAT.').isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/sync-advert-chat-360.png` });
    await staff.context.close();
    await context.close();
  });

  it('professional plan: checks, a wrong SAT password, the right one, then the previous day’s CFDI arrive', async () => {
    const user = await app.signUp('sync_pro', PERSONA_RFC, { first_name: 'Berenice', last_name: 'Ximo' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, user.username, user.password);
    await buyPlan(page, 'Profesional', 'Profesional mensual');
    await openSync(page);

    const status = page.getByRole('region', { name: 'Estado de la conexión' });
    await expect.poll(() => status.getByText('Sin conexión', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => status.getByText('Aún no se ha sincronizado').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: 'Método oficial del SAT: e.firma' }).isVisible()).toBe(true);
    await shot(page, 'sync-page-360');

    const password = page.getByLabel('Contraseña del SAT', { exact: true });
    const confirm = page.getByLabel('Confirma tu contraseña', { exact: true });
    const submit = page.getByRole('button', { name: 'Conectar con el SAT' });
    // §5, on the phone: empty, then the two differ.
    await submit.click();
    await expect.poll(() => page.getByText(MSG.satPasswordEmpty).isVisible()).toBe(true);
    await password.fill('Incorrecta1');
    await confirm.fill('Incorrecta2');
    await submit.click();
    await expect.poll(() => page.getByText(MSG.satPasswordsDiffer).isVisible()).toBe(true);
    expect(await confirm.getAttribute('aria-invalid')).toBe('true');

    // Offline: said plainly, nothing sent or queued, what was typed stays.
    await confirm.fill('Incorrecta1');
    await context.setOffline(true);
    await submit.click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: MSG.satOffline }).isVisible()).toBe(true);
    expect([await password.inputValue(), await confirm.inputValue()]).toEqual(['Incorrecta1', 'Incorrecta1']);
    await shot(page, 'sync-offline-360');
    await context.setOffline(false);

    // §8 SAT 400: a password the portal refuses, inline on the field; what was typed stays.
    await submit.click();
    await expect.poll(() => page.getByText(MSG.satPasswordInvalid).isVisible()).toBe(true);
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await password.inputValue()).toBe('Incorrecta1');
    await shot(page, 'sync-invalid-360');

    // The portal's CIEC: the §8 success text, the fields cleared, 'Conexión activa'.
    await password.fill(PORTAL_CIEC);
    await confirm.fill(PORTAL_CIEC);
    await submit.click();
    // Said once, in the status card (scrolled to on the phone), not in a form banner that would outlive the sync.
    await expect.poll(() => status.getByText(MSG.satSyncStarted).isVisible()).toBe(true);
    await expect.poll(() => status.evaluate((el) => el.getBoundingClientRect().top < innerHeight)).toBe(true);
    expect(await page.getByText(MSG.satSyncStarted).count()).toBe(1);
    expect(await password.inputValue()).toBe('');
    expect(await confirm.inputValue()).toBe('');
    await expect.poll(() => status.getByText('Conexión activa', { exact: true }).isVisible()).toBe(true);
    // The account reloaded: the saved-password flag is on (spec §4).
    const accounts = await app.api('/user_clients', { token: user.token });
    expect((accounts.body as { response: { rfc: string; ciec: boolean }[] }).response.find((a) => a.rfc === PERSONA_RFC)?.ciec).toBe(true);

    // No password was kept on the device (IndexedDB: Dexie tables, outbox, session store).
    const stored = await page.evaluate(async () => {
      const dump: string[] = [];
      for (const info of await indexedDB.databases()) {
        if (!info.name) continue;
        const db = await new Promise<IDBDatabase>((ok, ko) => {
          const r = indexedDB.open(info.name!);
          r.onsuccess = () => ok(r.result);
          r.onerror = () => ko(r.error);
        });
        for (const name of Array.from(db.objectStoreNames)) {
          const rows = await new Promise<unknown[]>((ok, ko) => {
            const r = db.transaction(name).objectStore(name).getAll();
            r.onsuccess = () => ok(r.result);
            r.onerror = () => ko(r.error);
          });
          dump.push(JSON.stringify(rows));
        }
        db.close();
      }
      return dump.join('\n');
    });
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).not.toContain(PORTAL_CIEC);
    expect(stored).not.toContain('Incorrecta1');

    // The queued sync runs: the page polls and says what arrived, with the last connection time.
    await expect
      .poll(() => status.getByText(/La última sincronización trajo \d+ comprobantes? nuevos?\./).isVisible(), { timeout: 90_000, interval: 500 })
      .toBe(true);
    await expect.poll(() => status.getByText(/^[a-z]+ \d{2} del \d{4} a las \d{1,2}:\d{2} (am|pm)$/).isVisible()).toBe(true);
    // The sync done, nothing says it is still starting.
    expect(await page.getByText(MSG.satSyncStarted).count()).toBe(0);
    await shot(page, 'sync-connected-360');

    // Yesterday's CFDI are tickets in yesterday's month.
    const y = mexicoCityDate(new Date(Date.now() - 24 * 60 * 60 * 1000));
    const q = `usuario[rfc_owner]=${PERSONA_RFC}&date[year]=${y.year}&date[month]=${y.month}`;
    const tickets = await app.api(`/api/v2/tickets?${q}`, { token: user.token });
    const list = (tickets.body as { response: { tickets: { receipt: { uuid: string } | null }[] } }).response.tickets;
    expect(list.filter((t) => t.receipt?.uuid).length).toBeGreaterThan(0);
    await context.close();

    // Desktop: the same page, connected; 'Desconectar' asks first, then the account is 'Sin conexión'.
    const desk = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(desk.page, user.username, user.password);
    await desk.page.goto(`${app.url}/#/sync`);
    const deskStatus = desk.page.getByRole('region', { name: 'Estado de la conexión' });
    await expect.poll(() => deskStatus.getByText('Conexión activa', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => deskStatus.getByText('Contraseña del SAT (CIEC)').isVisible()).toBe(true);
    await shot(desk.page, 'sync-connected-1280');
    await deskStatus.getByRole('button', { name: 'Desconectar' }).click();
    const dialog = desk.page.getByRole('dialog', { name: 'Desconectar del SAT' });
    await expect.poll(() => dialog.getByText(MSG.satDisconnectConfirm).isVisible()).toBe(true);
    if (SHOTS) await desk.page.screenshot({ path: `${SHOTS}/sync-disconnect-1280.png` });
    await dialog.getByRole('button', { name: 'Desconectar' }).click();
    await expect.poll(() => deskStatus.getByText('Sin conexión', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => dialog.count()).toBe(0);
    await shot(desk.page, 'sync-page-1280');

    // The official method, e.firma: all parts asked for on the phone, the server's reason inline, then
    // the persona's FIEL connects and its certificate is shown.
    const efirma = desk.page.getByRole('region', { name: 'Método oficial del SAT: e.firma' });
    const upload = efirma.getByRole('button', { name: 'Subir e.firma' });
    await upload.click();
    await expect.poll(() => efirma.getByText(MSG.efirmaMissing).isVisible()).toBe(true);
    const setFiel = async (cer: string, key: string) => {
      await efirma.getByLabel('Certificado (.cer)').setInputFiles(cer);
      await efirma.getByLabel('Llave privada (.key)').setInputFiles(key);
      await efirma.getByLabel('Contraseña de tu e.firma').fill(FIEL_PASSWORD);
    };
    await setFiel(`${SHARED_CSD}/EKU9003173C9.fiel.cer`, `${SHARED_CSD}/EKU9003173C9.fiel.key`);
    await upload.click();
    await expect.poll(() => efirma.getByRole('alert').filter({ hasText: MSG.efirmaWrongRfc }).isVisible()).toBe(true);
    await setFiel(`${PERSONA_FIEL}.cer`, `${PERSONA_FIEL}.key`);
    await upload.click();
    await expect.poll(() => deskStatus.getByText(MSG.satSyncStarted).isVisible()).toBe(true);
    expect(await efirma.getByText(MSG.satSyncStarted).count()).toBe(0);
    await expect.poll(() => efirma.getByText('Vigente hasta').isVisible()).toBe(true);
    await expect.poll(() => deskStatus.getByText('Conexión activa', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => deskStatus.getByText('e.firma', { exact: true }).isVisible()).toBe(true);
    await shot(desk.page, 'sync-efirma-1280');
    await desk.context.close();
  });

  it('a company RFC on the company plan sees the not-available notice (spec §5)', async () => {
    const user = await app.signUp('sync_empresa', 'EKU9003173C9', { name: 'ESCUELA KEMPER URGATE' });
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, user.username, user.password);
    await buyPlan(page, 'Empresarial', 'Empresarial mensual');
    await openSync(page);
    await expect.poll(() => page.getByText(MSG.satCompanyOnly).isVisible()).toBe(true);
    expect(await page.getByLabel('Contraseña del SAT', { exact: true }).count()).toBe(0);
    await shot(page, 'sync-company-1280');
    await context.close();
  });
});
