// Where the app can be installed from besides the browser: the store pages named by APP_STORE_URL and
// PLAY_STORE_URL (server/config.ts). The login screen shows a store's link only when its address is set.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv, Services } from '../context';
import { ok } from '../http/envelope';
import { defineRoute } from '../http/route';

const AppLinks = v.object({ app_store_url: v.nullable(v.string()), play_store_url: v.nullable(v.string()) });

export function appLinksRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  defineRoute(app, { method: 'get', path: '/api/v2/app_links', summary: 'Tiendas de la app (solo las configuradas)', tag: 'Catálogos', auth: false, response: AppLinks }, (c) => {
    // The same for everyone and changed only by a restart: a phone may keep it for an hour.
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, { app_store_url: s.config.appStoreUrl ?? null, play_store_url: s.config.playStoreUrl ?? null });
  });
  return app;
}
