// 'Exportar' downloads the selected spending as the spec's CSV (its columns first, then tipo), with a
// BOM for Excel and formula-looking cells neutralised; disabled while nothing is selected; the toast
// says how many rows and their total.
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, REPORT_COLUMNS } from '../../src/domain/csv-report';
import { startApp, type Running } from './harness';

let app: Running;
let user: { username: string; password: string; token: string };
beforeAll(async () => {
  app = await startApp();
  user = await app.signUp('exporta_csv', 'EXPO850101AB1', { first_name: 'Érika', last_name: 'Núñez' });
});
afterAll(async () => {
  await app?.stop();
});

describe('Exportar', () => {
  it('downloads the selected tickets as reporte-gastos-{year}.csv', async () => {
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await page.goto(`${app.url}/#/login`);
    await page.getByLabel('Usuario o correo').fill(user.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    const exportar = page.getByRole('button', { name: 'Exportar' }).first();
    await expect.poll(() => exportar.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await exportar.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Agregar gasto' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Monto', { exact: true }).fill('1234.5');
    await dialog.getByLabel('Categoría').selectOption({ label: 'Gasolina' });
    await dialog.getByLabel('Nota', { exact: true }).fill('=SUMA(1) café');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    await page.getByLabel('Seleccionar todos').first().check();
    await expect.poll(() => exportar.isEnabled()).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), exportar.click()]);
    expect(download.suggestedFilename()).toBe(`reporte-gastos-${new Date().getFullYear()}.csv`);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...REPORT_COLUMNS]);
    expect(parsed.meta.fields?.slice(0, CSV_COLUMNS.length)).toEqual([...CSV_COLUMNS]);
    expect(parsed.data).toHaveLength(1);
    expect(parsed.data[0]).toMatchObject({
      monto: '1234.50', categoria: 'Gasolina', nota: "'=SUMA(1) café", rfcReceptor: 'EXPO850101AB1', nombreComercialEmisor: 'Registro manual', tipo: 'Gasto manual',
    });
    await expect.poll(() => page.getByText('Se exportó 1 comprobante al reporte de gastos por $1,234.50.').count()).toBeGreaterThan(0);
    await context.close();
  });
});
