// Charts: the annual view in real Chromium against the real server, with the demo user's
// populated year plus a few tickets of the year before. The chart, its table and the side panel show
// the server's stats; another year reloads; offline, a year already seen opens from Dexie with the
// same numbers. Screenshots of the dashboard and the annual view at 360×780 and 1280×800 go to
// /tmp/cc-screens/ (outside the repo) for a person to look at.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriesFromStats, analyticsPath, statsPath, type StatsAnswer } from '../../src/app/annual/annual-model';
import { spendingSummary, type SpendingAnswer } from '../../src/app/tickets/spending-summary-model';
import { seriesBalance } from '../../src/domain/analytics';
import { capitalize, MONTH_NAMES } from '../../src/domain/dates';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { newId } from '../../src/domain/ids';
import { formatMoney } from '../../src/domain/money';
import { manualTicketPayload } from '../../src/domain/spending-form';
import { startApp, type Running } from './harness';

const SCREENS = '/tmp/cc-screens';
const DEMO = { user: 'demo', password: 'cuentasclaras' };
const YEAR = mexicoCityDate().year;
const LAST = YEAR - 1;

let app: Running;
let token: string;

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  app = await startApp();
  const login = await app.api('/api/v2/login', { method: 'POST', body: JSON.stringify({ user: { login: DEMO.user, password: DEMO.password } }) });
  token = (login.body as { response: { token: string } }).response.token;
  // The demo has this year only: a few spendings and an income last year, for both of its RFCs.
  const clients = (await app.api('/user_clients', { token })).body as { response: { rfc: string }[] };
  for (const { rfc } of clients.response) {
    const entries = [
      { kind: 'expense' as const, amount: '1500.00', date: `${LAST}/03/10`, category: '4' },
      { kind: 'expense' as const, amount: '820.40', date: `${LAST}/07/21`, category: '1' },
      { kind: 'expense' as const, amount: '99.90', date: `${LAST}/11/30`, category: '9' },
      { kind: 'income' as const, amount: '12000.00', date: `${LAST}/07/01`, category: '1' },
    ];
    for (const e of entries) {
      const body = manualTicketPayload({ ...e, currency: 'MXN', nationalAmount: '', note: 'Año anterior' }, rfc, newId());
      const r = await app.api('/form/ticket_create?format=json', { method: 'POST', token, body: JSON.stringify(body) });
      if (r.status !== 200) throw new Error(`ticket_create ${r.status}: ${JSON.stringify(r.body)}`);
    }
  }
});

afterAll(async () => {
  await app?.stop();
});

async function login(page: Page): Promise<void> {
  await page.goto(`${app.url}/#/login`);
  await page.getByLabel('Usuario o correo').fill(DEMO.user);
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.waitForSelector('.dashboard .dashboard__account', { timeout: 30_000 });
}

async function serverFigures(rfc: string, year: number) {
  const stats = (await app.api(statsPath(rfc, year), { token })).body as { response: { stats: StatsAnswer } };
  const analytics = (await app.api(analyticsPath(rfc, year), { token })).body as { response: { current: { categories: { label: string; value: number }[] } } };
  const series = seriesFromStats(stats.response.stats, year);
  return { series, totals: seriesBalance(series), topCategory: analytics.response.current.categories[0] };
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents().then((all) => all.map((t) => t.trim()));

/** The side panel (Ingresos, Gastos, Balance) and the chart's month table as the page shows them. */
async function shown(page: Page) {
  return {
    panel: await texts(page, '.annual__side dd'),
    months: await page.locator('.annual__chart .data-table tbody tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent?.trim() ?? ''))),
    topCategory: (await texts(page, '.annual .spending-summary__list:first-of-type .spending-summary__item .spending-summary__label'))[0],
  };
}

function expected(f: Awaited<ReturnType<typeof serverFigures>>) {
  return {
    panel: [formatMoney(f.totals.income), formatMoney(f.totals.expenses), formatMoney(f.totals.balance)],
    months: MONTH_NAMES.map((m, i) => [capitalize(m), formatMoney(f.series.spending[i]!), formatMoney(f.series.income[i]!)]),
    topCategory: f.topCategory?.label,
  };
}

/** The dashboard card's donut is drawn (it loads when the card comes near the viewport: scroll to it). */
async function donutShown(page: Page): Promise<boolean> {
  await page.locator('.spending-summary').scrollIntoViewIfNeeded();
  return (await page.locator('.spending-summary svg[role="img"]').count()) === 1;
}

async function yearSettled(page: Page, year: number): Promise<void> {
  await expect.poll(() => page.locator('.annual h1').textContent()).toBe(`Vista Anual ${year}`);
  await expect.poll(() => page.locator('.annual__sync').count(), { timeout: 30_000 }).toBe(0);
  await expect.poll(() => page.locator('.annual__chart svg[role="img"]').count(), { timeout: 20_000 }).toBe(1);
}

/** Pixels between the dashboard title's last line (its account) and the card after it. */
function gapUnderTitle(page: Page, next: string): Promise<number> {
  return page.evaluate((sel) => {
    const account = document.querySelector('.dashboard__account')!.getBoundingClientRect();
    return Math.round(document.querySelector(sel)!.getBoundingClientRect().top - account.bottom);
  }, next);
}

/** The drawn widths of each top list's bars. */
function barWidths(page: Page): Promise<number[][]> {
  return page.locator('.spending-summary__list ol').evaluateAll((lists) =>
    lists.map((ol) => [...ol.querySelectorAll('.spending-summary__bar')].map((b) => Math.round(b.getBoundingClientRect().width))));
}

describe('Vista Anual', () => {
  it("shows the server's numbers, reloads on another year and opens a seen year offline", async () => {
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await login(page);

    // The dashboard's summary card: the donut loads once the card is near the viewport.
    await expect.poll(() => donutShown(page), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.locator('.month-balance dd').first().textContent()).toMatch(/^\$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENS}/dashboard-1280.png`, fullPage: true });

    await page.getByRole('link', { name: 'Vista Anual' }).first().click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/annual');
    await yearSettled(page, YEAR);
    const rfc = ((await page.locator('.annual__account .tabular').textContent()) ?? '').trim();
    const now = await serverFigures(rfc, YEAR);
    expect(now.totals.expenses).toBeGreaterThan(0);
    expect(await shown(page)).toEqual(expected(now));

    // The popover: hover over a month, then the keyboard.
    const layer = page.locator('.line-chart__layer');
    const box = (await layer.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect.poll(() => page.locator('.chart-popover').count()).toBe(1);
    expect(await page.locator('.chart-popover').textContent()).toMatch(new RegExp(`(Junio|Julio) ${YEAR}Gastos\\$[\\d,.]+Ingresos\\$[\\d,.]+`));
    await layer.focus();
    // End: the last month drawn, this month (the rest of the year has not happened).
    await page.keyboard.press('End');
    const m = mexicoCityDate().month;
    const name = capitalize(MONTH_NAMES[m - 1]!);
    const last = `${name} de ${YEAR}. Gastos: ${formatMoney(now.series.spending[m - 1]!)}; Ingresos: ${formatMoney(now.series.income[m - 1]!)}`;
    expect(await layer.getAttribute('aria-valuetext')).toBe(last);
    expect(await page.locator('.chart-popover strong').textContent()).toBe(`${name} ${YEAR}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.chart-popover').count()).toBe(0);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/annual-1280.png`, fullPage: true });

    // Another year: everything reloads, with the change against the year before.
    await page.selectOption('#picker-year-only', String(LAST));
    await yearSettled(page, LAST);
    const before = await serverFigures(rfc, LAST);
    expect(await shown(page)).toEqual(expected(before));
    expect(await texts(page, '.annual__side dd')).toEqual([formatMoney(12000), formatMoney(2420.3), formatMoney(9579.7)]);
    await expect.poll(() => page.locator('.annual__tickets .tickets tbody tr').count()).toBe(4);

    // Offline: both years were pulled, so this year opens from the device with the same numbers.
    await context.setOffline(true);
    await page.selectOption('#picker-year-only', String(YEAR));
    await expect.poll(() => page.locator('.annual h1').textContent()).toBe(`Vista Anual ${YEAR}`);
    await expect.poll(() => page.getByText('Sin conexión — estos son los movimientos guardados en tu teléfono').count()).toBe(1);
    await expect.poll(() => shown(page)).toEqual(expected(now));
    expect(await page.locator('.annual .spending-summary__change--up, .annual .spending-summary__change--down, .annual .spending-summary__change--flat').count()).toBeGreaterThan(0);
    // A year never opened here says so instead of showing zeros.
    await page.selectOption('#picker-year-only', String(YEAR - 3));
    await expect.poll(() => page.getByText(`Sin conexión — los movimientos de ${YEAR - 3} se cargarán cuando te conectes.`).count()).toBeGreaterThan(0);

    // The dashboard's card offline: the month from the device, with the server's numbers.
    await page.selectOption('#picker-year-only', String(YEAR));
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.selectOption('#picker-month', String(m));
    await expect.poll(() => page.getByText('Sin conexión — calculado con los movimientos guardados en tu teléfono.').count()).toBe(1);
    const month = (await app.api(`/api/v3/analytics/spending/${rfc}/${YEAR}/${m}`, { token })).body as { response: SpendingAnswer };
    const summary = spendingSummary(month.response)!;
    const rows = (items: { label: string; value: number }[]) => items.map((i) => `${i.label} ${formatMoney(i.value)}`);
    const onScreen = () =>
      page.locator('.spending-summary__list').first().locator('.spending-summary__item').evaluateAll((items) =>
        items.map((li) => `${li.querySelector('.spending-summary__label')?.textContent} ${li.querySelector('.spending-summary__amount')?.textContent}`),
      );
    await expect.poll(onScreen).toEqual(rows(summary.categories));
    await expect.poll(() => donutShown(page), { timeout: 20_000 }).toBe(true);
    await context.setOffline(false);
    await context.close();
  });

  it('fits a 360 px phone', async () => {
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await login(page);
    await expect.poll(() => page.locator('.month-balance dd').first().textContent()).toMatch(/^\$/);
    await expect.poll(() => donutShown(page), { timeout: 20_000 }).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: `${SCREENS}/dashboard-360.png`, fullPage: true });
    await page.screenshot({ path: `${SCREENS}/dashboard-360-top.png` });
    await page.locator('.spending-summary').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/dashboard-360-summary.png` });
    // The title's line keeps the room of 'Actualizando…': no blank line under the account.
    expect(await gapUnderTitle(page, '.month-balance')).toBeLessThanOrEqual(16);
    // Each top list's bars are equally long, whatever the width of their figures.
    for (const widths of await barWidths(page)) expect(new Set(widths).size, `bars ${widths.join(', ')}`).toBe(1);

    await page.goto(`${app.url}/#/annual`);
    await yearSettled(page, YEAR);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // 'Vista Anual 2026' fits on one line beside the room of its spinner.
    expect(await page.locator('.annual h1').evaluate((h) => Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)))).toBe(1);
    // A tap shows the popover.
    const box = (await page.locator('.line-chart__layer').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await expect.poll(() => page.locator('.chart-popover').count()).toBe(1);
    await page.screenshot({ path: `${SCREENS}/annual-360.png`, fullPage: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENS}/annual-360-top.png` });
    await page.locator('.annual .donut').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/annual-360-categories.png` });
    await context.close();
  });
});
