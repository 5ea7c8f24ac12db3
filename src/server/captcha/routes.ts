// GET /api/v2/captcha: a fresh ALTCHA challenge for the registration form.
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { ok } from '../http/envelope';
import { newChallenge } from './altcha';
import { defineRoute } from '../http/route';
import * as R from '../openapi/responses';

export function captchaRoutes(s: Services, hmacKey: () => Promise<string>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  defineRoute(app, { method: 'get', path: '/api/v2/captcha', summary: 'Reto ALTCHA (prueba de trabajo SHA-256) para el registro', tag: 'Cuenta', auth: false, response: R.Challenge }, async (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, await newChallenge(await hmacKey(), s.config.captchaMaxNumber, s.clock()));
  });
  return app;
}
