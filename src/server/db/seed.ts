// Idempotent seeds, run on every start: plans, categories and the manual-entry company from src/domain,
// the demo user with SAT's public test RFCs, and the staff user `soporte`.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../domain/categories';
import { PLANS } from '../../domain/plans';
import { CFDI_COMPANY_ID, CFDI_COMPANY_SHORT_NAME, MANUAL_COMPANY_ID, MANUAL_COMPANY_SHORT_NAME } from '../../domain/ticket';
import { hashPassword } from '../accounts/passwords';
import type { Db } from './client';
import { clients, companies, incomeMetaTags, metaTags, plans, users } from './schema';

export const DEMO_USER = { username: 'demo', password: 'cuentasclaras', email: 'demo@cuentasclaras.mx' };
export const SUPPORT_USER = { username: 'soporte', email: 'soporte@cuentasclaras.mx' };
export const DEMO_RFCS = {
  persona: { rfc: 'XIQB891116QE4', firstName: 'BERENICE', lastName: 'XIMO QUEZADA' },
  empresa: { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE' },
};

/** Manual spending and income (DESIGN §3); merchants join this list in issue 6. */
export const SUPPORTED_COMPANIES = [
  { id: MANUAL_COMPANY_ID, shortName: MANUAL_COMPANY_SHORT_NAME, name: 'Registro manual', logo: '/favicon.svg' },
  { id: CFDI_COMPANY_ID, shortName: CFDI_COMPANY_SHORT_NAME, name: 'Factura importada', logo: '/favicon.svg' },
];

export interface SeedOptions {
  supportPassword?: string;
}

async function ensureUser(db: Db, u: { username: string; email: string; password: string; isStaff: boolean }): Promise<number> {
  const [found] = await db.select({ id: users.id }).from(users).where(eq(users.username, u.username));
  if (found) return found.id;
  await db
    .insert(users)
    .values({ username: u.username, email: u.email, passwordHash: await hashPassword(u.password), isStaff: u.isStaff })
    .onConflictDoNothing();
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, u.username));
  if (!row) throw new Error(`seed: no se pudo crear ${u.username}`);
  return row.id;
}

export async function seed(db: Db, opts: SeedOptions = {}): Promise<void> {
  await db
    .insert(plans)
    .values(PLANS.map((p) => ({ ...p })))
    .onConflictDoUpdate({
      target: plans.id,
      set: {
        name: sql`excluded.name`,
        summary: sql`excluded.summary`,
        price: sql`excluded.price`,
        interval: sql`excluded.interval`,
        purchasable: sql`excluded.purchasable`,
      },
    });
  await db
    .insert(metaTags)
    .values(EXPENSE_CATEGORIES.map((t) => ({ id: t.id, metaTag: t.meta_tag })))
    .onConflictDoUpdate({ target: metaTags.id, set: { metaTag: sql`excluded.meta_tag` } });
  await db
    .insert(incomeMetaTags)
    .values(INCOME_CATEGORIES.map((t) => ({ id: t.id, incomeMetaTag: t.income_meta_tag })))
    .onConflictDoUpdate({ target: incomeMetaTags.id, set: { incomeMetaTag: sql`excluded.income_meta_tag` } });
  await db
    .insert(companies)
    .values(SUPPORTED_COMPANIES)
    .onConflictDoUpdate({
      target: companies.id,
      set: { shortName: sql`excluded.short_name`, name: sql`excluded.name`, logo: sql`excluded.logo` },
    });

  const demoId = await ensureUser(db, { ...DEMO_USER, isStaff: false });
  await db
    .insert(clients)
    .values([
      { userId: demoId, rfc: DEMO_RFCS.persona.rfc, firstName: DEMO_RFCS.persona.firstName, lastName: DEMO_RFCS.persona.lastName },
      { userId: demoId, rfc: DEMO_RFCS.empresa.rfc, name: DEMO_RFCS.empresa.name },
    ])
    .onConflictDoNothing({ target: [clients.userId, clients.rfc] });

  const supportId = await ensureUser(db, {
    ...SUPPORT_USER,
    password: opts.supportPassword || randomBytes(24).toString('base64url'),
    isStaff: true,
  });
  if (opts.supportPassword) {
    await db.update(users).set({ passwordHash: await hashPassword(opts.supportPassword) }).where(eq(users.id, supportId));
  }
}
