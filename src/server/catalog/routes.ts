// Public catalogs: expense and income categories, plans and supported companies (seeded from src/domain).
import { asc } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { companies, incomeMetaTags, metaTags, plans } from '../db/schema';
import { ok } from '../http/envelope';
import { defineRoute } from '../http/route';
import * as R from '../openapi/responses';
import * as v from 'valibot';

export function catalogRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  defineRoute(app, { method: 'get', path: '/meta_tags.json', summary: 'Categorías de gasto', tag: 'Catálogos', auth: false, response: v.array(R.MetaTag) }, async (c) =>
    ok(c, await s.db.select({ id: metaTags.id, meta_tag: metaTags.metaTag }).from(metaTags).orderBy(asc(metaTags.id))),
  );
  defineRoute(app, { method: 'get', path: '/income_meta_tags.json', summary: 'Categorías de ingreso', tag: 'Catálogos', auth: false, response: v.array(R.IncomeMetaTag) }, async (c) =>
    ok(
      c,
      await s.db
        .select({ id: incomeMetaTags.id, income_meta_tag: incomeMetaTags.incomeMetaTag })
        .from(incomeMetaTags)
        .orderBy(asc(incomeMetaTags.id)),
    ),
  );
  defineRoute(app, { method: 'get', path: '/api/v3/plans.json', summary: 'Planes', tag: 'Catálogos', auth: false, response: v.array(R.Plan) }, async (c) =>
    ok(
      c,
      await s.db
        .select({ id: plans.id, name: plans.name, summary: plans.summary, price: plans.price })
        .from(plans)
        .orderBy(asc(plans.id)),
    ),
  );
  defineRoute(app, { method: 'get', path: '/company/all.json', summary: 'Empresas soportadas (1 = Registro manual)', tag: 'Catálogos', auth: false, response: v.array(R.Company) }, async (c) =>
    ok(
      c,
      await s.db
        .select({ short_name: companies.shortName, diverza_client_id: companies.id, name: companies.name, value: companies.logo })
        .from(companies)
        .orderBy(asc(companies.id)),
    ),
  );
  return app;
}
