// Nothing covers what a person needs to touch: every route of the router, signed out and signed in as the
// demo user, at 360×780 and 1280×800, and the dialogs a button opens there. A route fails when the page
// scrolls sideways, or when a fixed or sticky element (chat button, toast, PWA note, bottom bar, …) lies
// over a visible button, link, input or heading, at the top of the page or scrolled to its end, or when a
// chart's table, once shown, is wider than its card. Overlaps are found by
// hit-testing: the element the browser would hand a tap at points of the control belongs to a fixed or
// sticky box that does not hold the control. A screenshot of every route at both sizes is saved in
// SHOTS_DIR (git-ignored, named in the README).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Running } from './harness';

const SHOTS_DIR = 'tests/e2e/screenshots';
const SIZES = [
  { name: 'phone', width: 360, height: 780 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
type Size = (typeof SIZES)[number];
const MERCHANT = 'copexa';

/** Every path of src/app/router.tsx and where to see it; `session` says who visits. */
const ROUTES: Record<string, { hash: (ctx: Seeds) => string; session: 'out' | 'in' }> = {
  login: { hash: () => '/login', session: 'out' },
  register: { hash: () => '/register', session: 'out' },
  'forgot-password': { hash: () => '/forgot-password', session: 'out' },
  'reset-password': { hash: () => '/reset-password?token=caducado', session: 'out' },
  'ticket/form-anonymous/$name': { hash: () => '/ticket/form-anonymous/movil-norte', session: 'out' },
  tickets: { hash: (s) => `/tickets?ref=${s.ticketRef}`, session: 'out' },
  oauth: { hash: () => '/oauth?oauth_token=desconocido', session: 'out' },
  join: { hash: () => '/join?token=desconocido', session: 'out' },
  '/': { hash: () => '/', session: 'in' },
  home: { hash: () => '/home', session: 'in' },
  'add-client': { hash: () => '/add-client', session: 'in' },
  'edit-invoicement': { hash: () => '/edit-invoicement', session: 'in' },
  annual: { hash: () => '/annual', session: 'in' },
  'ticket/new': { hash: () => '/ticket/new', session: 'in' },
  'ticket/mil': { hash: () => '/ticket/mil', session: 'in' },
  'ticket/oma': { hash: () => '/ticket/oma', session: 'in' },
  'ticket/csj': { hash: () => '/ticket/csj', session: 'in' },
  'ticket/duf': { hash: () => '/ticket/duf', session: 'in' },
  'ticket/form/$name': { hash: () => '/ticket/form/autozone', session: 'in' },
  'ticket/form-multi/$name': { hash: () => '/ticket/form-multi/autozone', session: 'in' },
  'merchant/$merchant': { hash: () => `/merchant/${MERCHANT}`, session: 'in' },
  support: { hash: () => '/support', session: 'in' },
  plans: { hash: () => '/plans', session: 'in' },
  'plans/company': { hash: () => '/plans/company', session: 'in' },
  subscription: { hash: () => '/subscription', session: 'in' },
  company: { hash: () => '/company', session: 'in' },
  'per-diem': { hash: () => '/per-diem', session: 'in' },
  'company-view': { hash: () => '/company-view', session: 'in' },
  sync: { hash: () => '/sync', session: 'in' },
  'verify-rfc': { hash: () => '/verify-rfc', session: 'in' },
  $: { hash: () => '/no-existe', session: 'in' },
};

type Opener = (page: Page) => Promise<void>;
// Clicked through the DOM: whether something lies over the opener is what the checks report, not a reason
// to leave its dialog unseen.
const button = (name: string | RegExp): Opener => async (page) => {
  await page.getByRole('button', { name, exact: typeof name === 'string' }).locator('visible=true').first().evaluate((el: HTMLElement) => el.click());
};
/** A selectable table row with a CFDI: what 'Compartir' and 'Ver CFDI' need (desktop: the table names it). */
const CFDI_ROW = 'tr:has(.tickets__origin-link):has(input.row-check:not([disabled]))';
const clickFirst = async (page: Page, selector: string) => {
  await page.locator(selector).locator('visible=true').first().evaluate((el: HTMLElement) => el.click());
};
const selectCfdiRow = (page: Page) => clickFirst(page, `${CFDI_ROW} input.row-check`);
const selectAnyRow = (page: Page) => clickFirst(page, 'input.row-check:not([disabled]):not([aria-label="Seleccionar todos"])');

/**
 * Every file of src/app that draws a dialog, and how a button on a route opens it; `unreached` names
 * the state a dialog needs that a seeded demo account does not have (it is then left to its own e2e).
 */
const DIALOGS: Record<string, { route: string; open: Opener; sizes?: Size['name'][] } | { unreached: string }> = {
  'ui/overlay.tsx': { unreached: 'Modal, OffCanvas y Drawer: se abren en los demás diálogos de esta lista' },
  'ui/confirm-dialog.tsx': { unreached: 'se abre como selection-actions.tsx (Eliminar)' },
  'chat/chat-widget.tsx': { route: '/', open: button('Chat con soporte') },
  'signed-in-layout.tsx': { route: '/', open: button('Abrir menú'), sizes: ['phone'] },
  'layout/details-panel.tsx': { route: '/', open: button('Detalles de la cuenta'), sizes: ['desktop'] },
  'spending/spending-panel.tsx': { route: '/', open: button('Agregar gasto') },
  'imports/import-dialog.tsx': { route: '/', open: button('Importar CFDIs') },
  'tickets/share-dialog.tsx': { route: '/', open: async (p) => (await selectCfdiRow(p), await button(/^Compartir/)(p)), sizes: ['desktop'] },
  'tickets/selection-actions.tsx': { route: '/', open: async (p) => (await selectAnyRow(p), await button(/^Eliminar/)(p)) },
  'tickets/cfdi-panel.tsx': { route: '/', open: (p) => clickFirst(p, '.tickets__origin-link'), sizes: ['desktop'] },
  'scan/scan-dialog.tsx': { route: '/ticket/new', open: button('Escanear código') },
  'plans/plan-cancellation.tsx': { unreached: 'pide un plan pagado (plans.e2e.ts)' },
  'plans/checkout-dialog.tsx': { route: '/plans', open: button('Seleccionar') },
  'invoicing/fields/dynamic-fields.tsx': { route: '/ticket/form/autozone', open: button(/^Ayuda: /) },
  'invoicing/form-parts/note-dialog.tsx': { unreached: 'pide un ticket ya verificado (invoice-forms.e2e.ts)' },
  'invoicing/anonymous-form/anonymous-form.tsx': { unreached: 'pide un ticket ya facturado (invoice-forms.e2e.ts)' },
  'register/privacy-notice.tsx': { unreached: 'se abre en el paso 2 del registro (foundation.e2e.ts)' },
  'sat-sync/sync-page.tsx': { unreached: 'pide una conexión al SAT guardada (sync.e2e.ts)' },
  'oauth/connected-apps.tsx': { unreached: 'pide una aplicación autorizada (oauth.e2e.ts)' },
  'outbox/outbox-view.tsx': { unreached: 'pide cambios sin enviar, sin conexión (offline-capture.e2e.ts)' },
  'company/collaborator-panel.tsx': { unreached: 'pide un plan de empresa (company.e2e.ts)' },
  'company/collaborator-profile-dialog.tsx': { unreached: 'pide un plan de empresa (company.e2e.ts)' },
  'company/collaborators-tab.tsx': { unreached: 'pide un plan de empresa (company.e2e.ts)' },
  'company/departments-tab.tsx': { unreached: 'pide un plan de empresa (company.e2e.ts)' },
  'company-view/reject-dialog.tsx': { unreached: 'pide comprobantes por aprobar (company-view.e2e.ts)' },
  'per-diem/per-diem-panel.tsx': { unreached: 'pide el plan con Viáticos (per-diem.e2e.ts)' },
};

interface Seeds {
  ticketRef: string;
}

interface Overlap {
  cover: string;
  target: string;
}

/** In the page: the controls a fixed or sticky box covers (hit-tested), and whether the page scrolls sideways. */
function inspect(): { sideways: number; overlaps: Overlap[]; cutTables: string[] } {
  const describeEl = (el: Element): string => {
    const h = el as HTMLElement;
    const cls = typeof h.className === 'string' && h.className ? `.${h.className.trim().split(/\s+/).join('.')}` : '';
    const name = h.getAttribute('aria-label') ?? h.textContent?.trim().replace(/\s+/g, ' ').slice(0, 40) ?? '';
    return `${el.tagName.toLowerCase()}${cls}${name ? ` «${name}»` : ''}`;
  };
  // Fixed boxes float over the page. A sticky bar stuck at an edge (the top bar, the toast band, a phone's
  // bottom bar) is the frame the page scrolls under, not a cover (its height is checked below); but a
  // frame's own controls must not be covered, by anything.
  const frameOf = (el: Element | null, kinds: string[]): Element | null => {
    for (let n = el; n && n !== document.body; n = n.parentElement) {
      if (kinds.includes(getComputedStyle(n).position)) return n;
    }
    return null;
  };
  const modal = (el: Element) => el.closest('[aria-modal="true"], .overlay');
  const targets = Array.from(
    document.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="tab"], h1, h2'),
  );
  const overlaps: Overlap[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    const style = getComputedStyle(t);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    const r = t.getBoundingClientRect();
    const left = Math.max(r.left, 0);
    const right = Math.min(r.right, innerWidth);
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, innerHeight);
    if (right - left < 4 || bottom - top < 4) continue;
    // Nine points inside the visible part, 2 px in from its edges.
    const xs = [left + 2, (left + right) / 2, right - 2];
    const ys = [top + 2, (top + bottom) / 2, bottom - 2];
    for (const x of xs) {
      for (const y of ys) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || t.contains(hit) || hit.contains(t)) continue;
        const stack = document.elementsFromPoint(x, y);
        const at = stack.findIndex((e) => e === t || t.contains(e));
        if (at === -1) continue; // outside its shape (a round button's corner)
        const framed = frameOf(t, ['fixed', 'sticky']) !== null;
        // Scrolled under a frame there: out of view, not covered.
        if (!framed && stack.slice(0, at).some((e) => { const f = frameOf(e, ['sticky']); return f !== null && !f.contains(t); })) continue;
        const box = frameOf(hit, framed ? ['fixed', 'sticky'] : ['fixed']);
        if (!box || box.contains(t)) continue;
        // An open modal's backdrop is meant to lie over the page behind it.
        const m = modal(box);
        if (m && !m.contains(t)) continue;
        // The same layer (a frame over its own controls) is not a cover.
        if (frameOf(t, ['fixed', 'sticky']) === box) continue;
        const key = `${describeEl(box)}|${describeEl(t)}`;
        if (!seen.has(key)) {
          seen.add(key);
          overlaps.push({ cover: describeEl(box), target: describeEl(t) });
        }
      }
    }
  }
  for (const bar of document.querySelectorAll('body *')) {
    if (getComputedStyle(bar).position !== 'sticky') continue;
    const r = bar.getBoundingClientRect();
    const middle = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!middle || !bar.contains(middle)) continue; // under an open dialog
    // Stuck to the bottom edge: it must leave most of a phone's screen to the list it acts on.
    if (r.height > 0 && r.bottom >= innerHeight - 1 && r.top > innerHeight / 2 && r.height > innerHeight * 0.12) {
      overlaps.push({ cover: describeEl(bar), target: `${Math.round(r.height)}px de la pantalla (más del 12 %)` });
    }
  }
  // A chart's table ('Ver como tabla') that scrolls inside its card shows its last column cut at the edge.
  const cutTables = Array.from(document.querySelectorAll('.chart-table__wrap'))
    .filter((w) => w.scrollWidth > w.clientWidth + 1)
    .map((w) => `${w.querySelector('caption')?.textContent ?? 'tabla'}» ${w.scrollWidth - w.clientWidth}px`);
  const root = document.scrollingElement ?? document.documentElement;
  return { sideways: root.scrollWidth - innerWidth, overlaps, cutTables };
}

/** Waits for the route to settle: no loader, no skeleton, fonts ready, two quiet frames. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton, .spinner'), undefined, { timeout: 5_000 })
    .catch(() => undefined); // a screen that keeps a spinner (a pending poll) is still inspected
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  await page.waitForTimeout(300); // the 200 ms fades of overlays and toasts
}

/** Problems at the top of the page and scrolled to its end (where a page's bottom padding must clear floating buttons). */
async function problems(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const at of ['arriba', 'al final'] as const) {
    if (at === 'al final') {
      await page.evaluate(() => {
        window.scrollTo(0, document.scrollingElement?.scrollHeight ?? 0);
        for (const body of document.querySelectorAll('.panel__body, .chat-log')) body.scrollTop = body.scrollHeight;
      });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    const { sideways, overlaps, cutTables } = await page.evaluate(inspect);
    if (sideways > 0) found.push(`${where} (${at}): la página se desplaza ${sideways}px de lado`);
    for (const t of cutTables) found.push(`${where} (${at}): la tabla «${t} más ancha que su tarjeta`);
    for (const o of overlaps) found.push(`${where} (${at}): ${o.cover} tapa ${o.target}`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return found;
}

function dialogFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...dialogFiles(path));
    else if (/\.tsx$/.test(name) && /role="dialog"|<dialog\b|<(Modal|OffCanvas|Drawer|ConfirmDialog)\b/.test(readFileSync(path, 'utf8'))) {
      out.push(relative('src/app', path));
    }
  }
  return out.sort();
}

let app: Running;
let dataDir: string;
const seeds: Seeds = { ticketRef: '' };

beforeAll(async () => {
  rmSync(SHOTS_DIR, { recursive: true, force: true });
  mkdirSync(SHOTS_DIR, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'cc-e2e-overlap-'));
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/server/merchants/merchant-key.ts', MERCHANT], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  const key = out.trim().split('\n').pop() ?? '';
  app = await startApp({ DATA_DIR: dataDir });
  const r = await app.api(`/api/v3/merchants/${MERCHANT}/tickets`, {
    method: 'POST',
    headers: { 'X-Merchant-Key': key },
    body: JSON.stringify({
      ticket_number: `F${String(Date.now() % 1_000_000_000).padStart(9, '0')}L`, issued_at: new Date(Date.now() - 3600_000).toISOString(),
      forma_pago: '28', venue: 'Sucursal Centro', items: [{ description: 'Cuaderno profesional', quantity: '2', unit_price: '45.50' }],
    }),
  });
  if (r.status !== 201) throw new Error(`merchant ticket ${r.status}: ${JSON.stringify(r.body)}`);
  seeds.ticketRef = (r.body as { response: { ref: string } }).response.ref;
});

afterAll(async () => {
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function visit(page: Page, hash: string): Promise<void> {
  await page.goto(`${app.url}/#${hash}`);
  // A hash change on the same document does not reload: make sure the route's screen replaced the last one.
  await page.waitForFunction((h) => location.hash.startsWith(`#${h.split('?')[0]}`) || h === '/', hash, { timeout: 15_000 }).catch(() => undefined);
  await settle(page);
}

describe('nothing covers what a person needs to touch', () => {
  it('names every route of the router and every dialog of the app', () => {
    const router = readFileSync('src/app/router.tsx', 'utf8');
    const paths = [...router.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1]!);
    expect(paths.filter((p) => !(p in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((p) => !paths.includes(p))).toEqual([]);
    expect(dialogFiles('src/app')).toEqual(Object.keys(DIALOGS).sort());
  });

  it('shows a first visit, every route and every reachable dialog at 360 and 1280 px with nothing covered and no sideways scroll', async () => {
    const found: string[] = [];
    const report = { push: (...items: string[]) => (items.forEach((i) => console.log(`✗ ${i}`)), found.push(...items)) };
    for (const session of ['out', 'in'] as const) {
      const { context, page } = await app.newContext(SIZES[0]);
      page.setDefaultTimeout(8_000);
      if (session === 'out') {
        // First visit: 'Lista para usarse sin conexión' arrives once the service worker has cached the app.
        await page.goto(`${app.url}/#/`);
        await page.evaluate(() => navigator.serviceWorker.ready);
        await settle(page);
        report.push(...(await problems(page, 'primera visita 360')));
        await visit(page, '/login');
        await page.getByText('Lista para usarse sin conexión').waitFor({ timeout: 10_000 }).catch(() => undefined);
        report.push(...(await problems(page, 'primera visita 360, siguiente pantalla')));
        // A refused login: its error toast covers nothing, and goes once the person edits the form or leaves.
        await page.getByLabel('Usuario o correo').fill('nadie');
        await page.getByLabel('Contraseña', { exact: true }).fill('no-es-la-clave');
        await page.getByRole('button', { name: 'Iniciar sesión' }).click();
        const refused = page.locator('.toast--error, .toast--warning');
        await refused.first().waitFor({ timeout: 15_000 });
        report.push(...(await problems(page, 'login con error 360')));
        await page.getByLabel('Contraseña', { exact: true }).pressSequentially('x');
        if (await refused.count()) report.push('el aviso del login fallido sigue visible después de corregir la contraseña');
        await page.getByRole('button', { name: 'Iniciar sesión' }).click();
        await refused.first().waitFor({ timeout: 15_000 });
        await visit(page, '/forgot-password');
        if (await refused.count()) report.push('el aviso del login fallido sigue visible en forgot-password');
      } else {
        await app.signIn(page, 'demo', 'cuentasclaras');
        await page.getByRole('button', { name: /^Cuenta: / }).waitFor({ timeout: 30_000 });
      }
      for (const size of SIZES) {
        await page.setViewportSize(size);
        for (const route of Object.values(ROUTES)) {
          if (route.session !== session) continue;
          const hash = route.hash(seeds);
          await visit(page, hash);
          const label = `${size.width} ${hash}`;
          report.push(...(await problems(page, label)));
          // Charts' tables shown: they stay inside their cards.
          const shown = await page.$$eval('.chart-table__toggle[aria-pressed="false"]', (all) => all.map((t) => (t as HTMLElement).click()).length);
          if (shown) report.push(...(await problems(page, `${label} con tablas`)));
          const slug = hash.split('?')[0]!.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '_') || 'inicio';
          const file = `${size.name}-${session === 'in' ? 'demo' : 'anonimo'}-${slug}.png`;
          await page.screenshot({ path: join(SHOTS_DIR, file), fullPage: true });
          for (const [dialog, how] of Object.entries(DIALOGS)) {
            if (!('route' in how) || how.route !== hash || (how.sizes && !how.sizes.includes(size.name))) continue;
            try {
              await how.open(page);
              await page.locator('[role="dialog"]').last().waitFor({ timeout: 10_000 });
              await settle(page);
              report.push(...(await problems(page, `${label} diálogo ${dialog}`)));
              await page.screenshot({ path: join(SHOTS_DIR, file.replace('.png', `--${dialog.replace(/[^a-z0-9]+/gi, '_')}.png`)) });
            } catch (err) {
              report.push(`${label}: no se pudo abrir ${dialog}: ${(err as Error).message.split('\n')[0]}`);
            }
            // Close it (the chat panel outlives a route change) and leave its selection behind.
            for (let i = 0; i < 3 && (await page.locator('[role="dialog"]').count()); i++) {
              await page.keyboard.press('Escape');
              await page.waitForTimeout(250);
            }
            await visit(page, '/no-existe');
            await visit(page, hash);
          }
        }
      }
      await context.close();
    }
    expect(found).toEqual([]);
  }, 300_000);
});
