// Drizzle schema of the API (pg-core): the same tables and migrations on PGlite and PostgreSQL.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  isStaff: boolean('is_staff').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token, hex: the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    remember: boolean('remember').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    /** Absolute expiry; remembered sessions also expire after 30 idle days. */
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_hash_idx').on(t.tokenHash), index('sessions_user_id_idx').on(t.userId)],
);

export const plans = pgTable('plans', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  summary: text('summary').notNull(),
  price: integer('price').notNull(),
  interval: smallint('interval').notNull().default(1),
  purchasable: boolean('purchasable').notNull().default(false),
});

export const clients = pgTable(
  'clients',
  {
    /** Exposed as diverza_client_id. */
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rfc: text('rfc').notNull(),
    name: text('name'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    planId: integer('plan_id')
      .notNull()
      .default(1)
      .references(() => plans.id),
    subscriptionId: integer('subscription_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpMonth: smallint('card_exp_month'),
    cardExpYear: smallint('card_exp_year'),
    activeUntil: ts('active_until'),
    ciec: boolean('ciec').notNull().default(false),
    synchronizedAt: ts('synchronized_at'),
    street: text('street').notNull().default(''),
    externalNumber: text('external_number').notNull().default(''),
    internalNumber: text('internal_number').notNull().default(''),
    neighborhood: text('neighborhood').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    country: text('country').notNull().default('MEX'),
    zipCode: text('zip_code').notNull().default(''),
    numRegIdTrib: text('num_reg_id_trib'),
    residenciaFiscal: text('residencia_fiscal'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('clients_user_id_rfc_idx').on(t.userId, t.rfc), index('clients_user_id_idx').on(t.userId)],
);

export const metaTags = pgTable('meta_tags', {
  id: integer('id').primaryKey(),
  metaTag: text('meta_tag').notNull(),
});

export const incomeMetaTags = pgTable('income_meta_tags', {
  id: integer('id').primaryKey(),
  incomeMetaTag: text('income_meta_tag').notNull(),
});

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** 'u:<user id>' or 'anon'. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** 'running' while the first request executes, then 'done'. */
    state: text('state').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    responseType: text('response_type'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    /** 'user:<id>', 'login:<text>' or 'ip:<address>'. */
    bucket: text('bucket').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('login_attempts_bucket_at_idx').on(t.bucket, t.at)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('password_resets_token_hash_idx').on(t.tokenHash)],
);

export const captchaUsed = pgTable('captcha_used', {
  signature: text('signature').primaryKey(),
  expiresAt: ts('expires_at').notNull(),
});

export const mailMessages = pgTable('mail_messages', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().default(sql`now()`),
});
