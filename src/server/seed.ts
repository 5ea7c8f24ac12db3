// Idempotent seeds, run on every start: plans, categories and the manual-entry company from src/domain,
// the demo merchants with their issuer data, CSD and forms, the demo user with SAT's public
// test RFCs, and the staff user `soporte`.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../domain/categories';
import { PLANS } from '../domain/plans';
import { CFDI_COMPANY_ID, CFDI_COMPANY_SHORT_NAME, MANUAL_COMPANY_ID, MANUAL_COMPANY_SHORT_NAME } from '../domain/ticket';
import { hashPassword } from './lib/passwords';
import { TEST_CSD_PASSWORD } from './cfdi/seal';
import { catalogFieldRows, DEMO_MERCHANT_REGIME, DEMO_MERCHANT_RFC, MERCHANT_CATALOG } from './merchants/catalog';
import { csdPasswordContext, sealSecret, serverSecret } from './lib/secret-box';
import type { Db } from './db/client';
import { DEMO_RFCS, DEMO_USER, SUPPORT_USER } from './db/demo-accounts';
import { clients, companies, formFields, incomeMetaTags, metaTags, plans, users } from './db/schema';

/** Our own origins (DESIGN §3): manual spending and income, imported CFDI. Merchants come from the catalog. */
export const SUPPORTED_COMPANIES = [
  { id: MANUAL_COMPANY_ID, shortName: MANUAL_COMPANY_SHORT_NAME, name: 'Registro manual', logo: '/favicon.svg', kind: 'manual' },
  { id: CFDI_COMPANY_ID, shortName: CFDI_COMPANY_SHORT_NAME, name: 'Factura importada', logo: '/favicon.svg', kind: 'cfdi' },
];

const testCredential = (ext: 'cer' | 'key') =>
  readFileSync(fileURLToPath(new URL(`./cfdi/test-credentials/${DEMO_MERCHANT_RFC}.csd.${ext}`, import.meta.url))).toString('base64');

/**
 * The demo merchants (src/server/merchants/catalog.ts): issuer data, SAT's test CSD with its password
 * sealed under the server secret, and their forms (fields upserted by id; fields a merchant no longer
 * has are removed). API key hashes are left as they are (set by merchant-key.ts).
 */
async function seedMerchants(db: Db): Promise<void> {
  const secret = await serverSecret(db);
  const [cer, key] = [testCredential('cer'), testCredential('key')];
  await db
    .insert(companies)
    .values(
      MERCHANT_CATALOG.map((m) => ({
        id: m.entry.id,
        shortName: m.entry.short_name,
        name: m.entry.name,
        logo: m.entry.logo,
        kind: 'merchant',
        rfc: DEMO_MERCHANT_RFC,
        legalName: m.legalName,
        taxRegime: DEMO_MERCHANT_REGIME,
        postalCode: m.postalCode,
        csdCer: cer,
        csdKey: key,
        csdPasswordEnc: sealSecret(secret, TEST_CSD_PASSWORD, csdPasswordContext(m.entry.id)),
      })),
    )
    .onConflictDoUpdate({
      target: companies.id,
      set: {
        shortName: sql`excluded.short_name`,
        name: sql`excluded.name`,
        logo: sql`excluded.logo`,
        kind: sql`excluded.kind`,
        rfc: sql`excluded.rfc`,
        legalName: sql`excluded.legal_name`,
        taxRegime: sql`excluded.tax_regime`,
        postalCode: sql`excluded.postal_code`,
        csdCer: sql`excluded.csd_cer`,
        csdKey: sql`excluded.csd_key`,
        csdPasswordEnc: sql`excluded.csd_password_enc`,
      },
    });
  const rows = MERCHANT_CATALOG.flatMap(catalogFieldRows);
  await db
    .insert(formFields)
    .values(rows)
    .onConflictDoUpdate({
      target: formFields.id,
      set: {
        companyId: sql`excluded.company_id`,
        position: sql`excluded.position`,
        fieldName: sql`excluded.field_name`,
        typeId: sql`excluded.type_id`,
        minLength: sql`excluded.min_length`,
        helperImage: sql`excluded.helper_image`,
        options: sql`excluded.options`,
        meaning: sql`excluded.meaning`,
      },
    });
  await db.delete(formFields).where(
    and(
      inArray(formFields.companyId, MERCHANT_CATALOG.map((m) => m.entry.id)),
      notInArray(formFields.id, rows.map((r) => r.id)),
    ),
  );
}

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
      set: { shortName: sql`excluded.short_name`, name: sql`excluded.name`, logo: sql`excluded.logo`, kind: sql`excluded.kind` },
    });
  await seedMerchants(db);

  const demoId = await ensureUser(db, { ...DEMO_USER, isStaff: false });
  await db
    .insert(clients)
    .values([
      { userId: demoId, ...DEMO_RFCS.persona },
      { userId: demoId, ...DEMO_RFCS.empresa },
    ])
    .onConflictDoNothing({ target: [clients.userId, clients.rfc] });
  // Demo databases made before accounts had a postal code and regime get them once (never over a user's edit).
  for (const a of [DEMO_RFCS.persona, DEMO_RFCS.empresa]) {
    await db
      .update(clients)
      .set({ zipCode: a.zipCode, taxRegime: a.taxRegime })
      .where(and(eq(clients.userId, demoId), eq(clients.rfc, a.rfc), eq(clients.taxRegime, '')));
    // The demo's RFCs are SAT's test taxpayers whose CIECs the simulated portal holds (DEMO_SAT_CIECS): as
    // proved as a SAT connection would make them, so the company and QR-import demos work at once.
    await db
      .update(clients)
      .set({ rfcVerifiedAt: new Date(), rfcVerifiedBy: 'sat' })
      .where(and(eq(clients.userId, demoId), eq(clients.rfc, a.rfc), isNull(clients.rfcVerifiedAt)));
  }

  const supportId = await ensureUser(db, {
    ...SUPPORT_USER,
    password: opts.supportPassword || randomBytes(24).toString('base64url'),
    isStaff: true,
  });
  if (opts.supportPassword) {
    await db.update(users).set({ passwordHash: await hashPassword(opts.supportPassword) }).where(eq(users.id, supportId));
  }
}
