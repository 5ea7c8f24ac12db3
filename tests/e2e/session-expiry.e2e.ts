// A session that ends while the app is open (expired or revoked on the server: any call answers 401):
// the app says so, goes to the login, and after signing in again returns to the screen the user was on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { startApp, type Running } from './harness';

let app: Running;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('session ended on the server', () => {
  it('goes to the login with the current screen, and back to it after signing in', async () => {
    const user = await app.signUp('expira_sesion', 'EXPS850101AB1', { first_name: 'Elena', last_name: 'Paz' });
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, user.username, user.password);
    await page.goto(`${app.url}/#/annual`);
    await expect.poll(() => page.getByRole('button', { name: /^Cuenta: Elena/ }).isVisible(), { timeout: 20_000 }).toBe(true);

    // The server no longer knows the session: its next call answers 401.
    await context.route('**/user_clients**', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ errors: [MSG.unauthorized] }) }),
    );
    await page.reload();
    await expect.poll(() => page.url(), { timeout: 20_000 }).toContain('#/login');
    expect(decodeURIComponent(page.url())).toContain('redirect=/annual');
    await expect.poll(() => page.getByText(MSG.unauthorized).first().isVisible()).toBe(true);

    await context.unroute('**/user_clients**');
    await page.getByLabel('Usuario o correo').fill(user.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(/#\/annual$/);
    await context.close();
  });
});
