// Account endpoints: sign-up, sign-in/out, password reset, and the caller's tax accounts.
import { Hono } from 'hono';
import { CreateUserBody, LoginBody, PasswordResetConfirmBody, PasswordResetRequestBody } from '../../domain/auth-schemas';
import { EditClientBody, NewClientBody } from '../../domain/client-schemas';
import { MSG } from '../../domain/messages';
import type { AppEnv, Clock, Services } from '../context';
import type { Db } from '../db/client';
import { caller, extractToken, requireAuth } from '../http/auth';
import { clientIp } from '../http/client-ip';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { markSecretResponse } from '../http/idempotency';
import { createClient, listAccounts, updateClient } from './clients';
import { confirmReset, requestReset } from './password-reset';
import { revokeSession } from './sessions';
import { createUser, login, registrationProblem } from './users';
import { UsernameAvailability, usernameAvailability, UsernameCheckLimits, UsernameQuery } from './username-availability';
import { defineRoute } from '../http/route';
import * as R from '../openapi/responses';
import * as v from 'valibot';

/** Spends a sign-up captcha solution once (the captcha area's, handed in by the composition root). */
export type SpendCaptcha = (db: Db, hmacKey: string, payload: string, clock: Clock) => Promise<boolean>;

export function accountRoutes(s: Services, hmacKey: () => Promise<string>, spendCaptcha: SpendCaptcha): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  defineRoute(app, { method: 'post', path: '/api/v2/create_user', summary: 'Crear usuario (con la solución ALTCHA en base64 en `captcha`)', tag: 'Cuenta', auth: false, body: CreateUserBody, response: R.NewUser, errors: [422] }, async (c, { body }) => {
    const problem = await registrationProblem(body);
    if (problem) throw fail(400, problem);
    if (!body.captcha) throw fail(400, MSG.captchaRequired);
    if (!(await spendCaptcha(s.db, await hmacKey(), body.captcha, s.clock))) throw fail(400, MSG.captchaInvalid);
    return ok(c, await createUser(s.db, body));
  });

  const usernameChecks = new UsernameCheckLimits(s.limits);
  defineRoute(app, {
    method: 'get', path: '/api/v2/username_available', summary: 'Si un nombre de usuario (con la regla de registro aplicada) está libre. Límite: 10 por minuto y 60 por hora por dirección',
    tag: 'Cuenta', auth: false, query: UsernameQuery, response: UsernameAvailability, errors: [429], params: { username: '*Nombre de usuario tal como se escribió' },
  }, async (c, { query }) => {
    await usernameChecks.take(c.get('ip'), s.clock().getTime());
    c.header('Cache-Control', 'no-store');
    return ok(c, await usernameAvailability(s.db, query.username));
  });

  defineRoute(app, { method: 'post', path: '/api/v2/login', summary: 'Iniciar sesión con usuario o correo', tag: 'Cuenta', auth: false, body: LoginBody, response: R.LoginSession, errors: [429] }, async (c, { body }) => {
    const session = await login(s.db, body, clientIp(c, s.config.trustProxy), s.clock(), await hmacKey());
    markSecretResponse(c);
    return ok(c, session);
  });

  defineRoute(app, { method: 'post', path: '/api/v2/logout', summary: 'Cerrar sesión (revoca el token)', tag: 'Cuenta', auth: true, response: R.Ok }, auth, async (c) => {
    const token = extractToken(c);
    if (token) await revokeSession(s.db, s.sessions, token, s.clock());
    return ok(c, { ok: true });
  });

  defineRoute(app, { method: 'post', path: '/api/v2/password_reset', summary: 'Pedir un enlace para restablecer la contraseña (hasta 3 correos por hora por cuenta; 10 solicitudes por hora por dirección, luego 429)', tag: 'Cuenta', auth: false, body: PasswordResetRequestBody, response: R.Message, errors: [429] }, async (c, { body }) => {
    if (!body.user.login.trim()) throw fail(400, MSG.resetLoginEmpty);
    await requestReset(s.db, s.mailer, body.user.login, s.config.publicUrl, s.clock(), clientIp(c, s.config.trustProxy));
    return ok(c, { message: MSG.resetSent });
  });

  defineRoute(app, { method: 'post', path: '/api/v2/password_reset/confirm', summary: 'Elegir una nueva contraseña con el token del enlace', tag: 'Cuenta', auth: false, body: PasswordResetConfirmBody, response: R.Message }, async (c, { body }) => {
    await confirmReset(s.db, s.sessions, body.token, body.password, s.clock());
    return ok(c, { message: MSG.resetDone });
  });

  defineRoute(app, { method: 'get', path: '/user_clients', summary: 'Cuentas fiscales (RFC) del usuario', tag: 'Cuentas fiscales', auth: true, response: v.array(R.Account) }, auth, async (c) => {
    const userId = caller(c).userId;
    let accounts = s.accounts.get(userId);
    if (!accounts) {
      const mark = s.accounts.mark();
      accounts = await listAccounts(s.db, userId);
      s.accounts.set(userId, accounts, mark);
    }
    return ok(c, accounts);
  });

  defineRoute(app, { method: 'post', path: '/new_client', summary: 'Agregar una cuenta fiscal', tag: 'Cuentas fiscales', auth: true, body: NewClientBody, response: R.Account, errors: [422] }, auth, async (c, { body }) => {
    return ok(c, await createClient(s.db, caller(c).userId, body));
  });

  defineRoute(app, { method: 'put', path: '/update_client', summary: 'Editar los datos de facturación de una cuenta fiscal propia', tag: 'Cuentas fiscales', auth: true, body: EditClientBody, response: R.Account, errors: [404, 422] }, auth, async (c, { body }) => {
    return ok(c, await updateClient(s.db, caller(c).userId, body));
  });

  return app;
}
