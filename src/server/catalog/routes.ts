// Public catalogs: expense and income categories, plans and supported companies (seeded from src/domain).
import { asc } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { companies, incomeMetaTags, metaTags, plans } from '../db/schema';
import { ok } from '../http/envelope';

export function catalogRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/meta_tags.json', async (c) =>
    ok(c, await s.db.select({ id: metaTags.id, meta_tag: metaTags.metaTag }).from(metaTags).orderBy(asc(metaTags.id))),
  );
  app.get('/income_meta_tags.json', async (c) =>
    ok(
      c,
      await s.db
        .select({ id: incomeMetaTags.id, income_meta_tag: incomeMetaTags.incomeMetaTag })
        .from(incomeMetaTags)
        .orderBy(asc(incomeMetaTags.id)),
    ),
  );
  app.get('/api/v3/plans.json', async (c) =>
    ok(
      c,
      await s.db
        .select({ id: plans.id, name: plans.name, summary: plans.summary, price: plans.price })
        .from(plans)
        .orderBy(asc(plans.id)),
    ),
  );
  app.get('/company/all.json', async (c) =>
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
