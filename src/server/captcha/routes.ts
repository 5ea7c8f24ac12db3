// GET /api/v2/captcha: a fresh ALTCHA challenge for the registration form.
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { ok } from '../http/envelope';
import { newChallenge } from './altcha';

export function captchaRoutes(s: Services, hmacKey: () => Promise<string>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/v2/captcha', async (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, await newChallenge(await hmacKey(), s.config.captchaMaxNumber, s.clock()));
  });
  return app;
}
