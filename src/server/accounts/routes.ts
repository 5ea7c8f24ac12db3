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
import { fail, parseWith } from '../http/errors';
import { markSecretResponse } from '../http/idempotency';
import { createClient, listAccounts, updateClient } from './clients';
import { confirmReset, requestReset } from './password-reset';
import { revokeSession } from './sessions';
import { createUser, login, registrationProblem } from './users';

/** Spends a sign-up captcha solution once (the captcha area's, handed in by the composition root). */
export type SpendCaptcha = (db: Db, hmacKey: string, payload: string, clock: Clock) => Promise<boolean>;

export function accountRoutes(s: Services, hmacKey: () => Promise<string>, spendCaptcha: SpendCaptcha): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  app.post('/api/v2/create_user', async (c) => {
    const body = parseWith(CreateUserBody, c.get('body'));
    const problem = await registrationProblem(body);
    if (problem) throw fail(400, problem);
    if (!body.captcha) throw fail(400, MSG.captchaRequired);
    if (!(await spendCaptcha(s.db, await hmacKey(), body.captcha, s.clock))) throw fail(400, MSG.captchaInvalid);
    return ok(c, await createUser(s.db, body));
  });

  app.post('/api/v2/login', async (c) => {
    const body = parseWith(LoginBody, c.get('body'));
    const session = await login(s.db, body, clientIp(c, s.config.trustProxy), s.clock(), await hmacKey());
    markSecretResponse(c);
    return ok(c, session);
  });

  app.post('/api/v2/logout', auth, async (c) => {
    const token = extractToken(c);
    if (token) await revokeSession(s.db, s.sessions, token, s.clock());
    return ok(c, { ok: true });
  });

  app.post('/api/v2/password_reset', async (c) => {
    const body = parseWith(PasswordResetRequestBody, c.get('body'));
    await requestReset(s.db, s.mailer, body.user.login, s.config.publicUrl, s.clock(), clientIp(c, s.config.trustProxy));
    return ok(c, { message: MSG.resetSent });
  });

  app.post('/api/v2/password_reset/confirm', async (c) => {
    const body = parseWith(PasswordResetConfirmBody, c.get('body'));
    await confirmReset(s.db, s.sessions, body.token, body.password, s.clock());
    return ok(c, { message: MSG.resetDone });
  });

  app.get('/user_clients', auth, async (c) => {
    const userId = caller(c).userId;
    let accounts = s.accounts.get(userId);
    if (!accounts) {
      const mark = s.accounts.mark();
      accounts = await listAccounts(s.db, userId);
      s.accounts.set(userId, accounts, mark);
    }
    return ok(c, accounts);
  });

  app.post('/new_client', auth, async (c) => {
    const body = parseWith(NewClientBody, c.get('body'));
    return ok(c, await createClient(s.db, caller(c).userId, body));
  });

  app.put('/update_client', auth, async (c) => {
    const body = parseWith(EditClientBody, c.get('body'));
    return ok(c, await updateClient(s.db, caller(c).userId, body));
  });

  return app;
}
