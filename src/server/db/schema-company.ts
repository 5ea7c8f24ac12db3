// Tables of the company tier and OAuth, in their own file (drizzle.config lists both files).
// Collaborators, departments, ticket reviews and per-diem events belong to a company: a tax account
// (clients row) with a 12-character RFC whose owner is the manager.
import { sql } from 'drizzle-orm';
import { date, index, integer, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { clients, tickets, users } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Departments (spec §3 Area). The name is stored normalised (domain/company.ts); unique per company. */
export const companyAreas = pgTable(
  'company_areas',
  {
    id: serial('id').primaryKey(),
    companyClientId: integer('company_client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    area: text('area').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('company_areas_name_idx').on(t.companyClientId, sql`lower(${t.area})`)],
);

/**
 * A company's collaborator (spec §3): invited by e-mail, 'activo' once the invitation is accepted with a
 * user and one of that user's tax accounts (client_id) — which the company may then read (spec §6).
 * The join link's token is stored as SHA-256 only; single use (cleared on accept), expiring.
 */
export const collaborators = pgTable(
  'collaborators',
  {
    id: serial('id').primaryKey(),
    companyClientId: integer('company_client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    areaId: integer('area_id').references(() => companyAreas.id, { onDelete: 'set null' }),
    corporateCard: text('corporate_card').notNull().default(''),
    accountTypeForRefundsId: smallint('account_type_for_refunds_id'),
    accountForRefunds: text('account_for_refunds').notNull().default(''),
    authorizerId: integer('authorizer_id').references((): AnyPgColumn => collaborators.id, { onDelete: 'set null' }),
    /** 'invitado' | 'activo' | 'inactivo' */
    status: text('status').notNull().default('invitado'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'set null' }),
    invitationTokenHash: text('invitation_token_hash'),
    invitationExpiresAt: ts('invitation_expires_at'),
    acceptedAt: ts('accepted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('collaborators_email_idx').on(t.companyClientId, t.email),
    uniqueIndex('collaborators_token_idx').on(t.invitationTokenHash),
    index('collaborators_client_idx').on(t.clientId),
  ],
);

/**
 * A manager's decision on a collaborator's ticket (spec §4: aprobado / rechazado). The ticket's own status
 * moves too; this row keeps who, when, for which company and the rejection's reason the collaborator sees.
 */
export const ticketReviews = pgTable(
  'ticket_reviews',
  {
    ticketId: uuid('ticket_id')
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    companyClientId: integer('company_client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** 'aprobado' | 'rechazado' */
    decision: text('decision').notNull(),
    reason: text('reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: ts('reviewed_at').notNull().defaultNow(),
  },
  (t) => [index('ticket_reviews_company_idx').on(t.companyClientId, t.reviewedAt)],
);

/** Per-diem (viáticos) events of a company (spec §3, ours: on the server). */
export const perDiemEvents = pgTable(
  'per_diem_events',
  {
    id: serial('id').primaryKey(),
    companyClientId: integer('company_client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    eventName: text('event_name').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    areaId: integer('area_id').references(() => companyAreas.id, { onDelete: 'set null' }),
    collaboratorId: integer('collaborator_id').references(() => collaborators.id, { onDelete: 'set null' }),
    /** MXN. */
    deposit: numeric('deposit', { precision: 14, scale: 2 }).notNull(),
    notes: text('notes').notNull().default(''),
    /** 'open' | 'approved' | 'closed' */
    status: text('status').notNull().default('open'),
    /** Totals frozen when the event is closed (authorised vs spent). */
    authorizedTotal: numeric('authorized_total', { precision: 14, scale: 2 }),
    spentTotal: numeric('spent_total', { precision: 14, scale: 2 }),
    closedAt: ts('closed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('per_diem_events_company_idx').on(t.companyClientId, t.startDate)],
);

/** A third-party app (spec §3 OAuth application). client_id is public; the secret is stored hashed. */
export const oauthApplications = pgTable('oauth_applications', {
  id: serial('id').primaryKey(),
  clientId: text('client_id').notNull().unique(),
  secretHash: text('secret_hash').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  icon: text('icon').notNull(),
  website: text('website').notNull(),
  callbackUrl: text('callback_url').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** The flow's request token (step 1) and, once authorised, its verifier (step 2). Hashes only; single use. */
export const oauthRequests = pgTable('oauth_requests', {
  tokenHash: text('token_hash').primaryKey(),
  applicationId: integer('application_id')
    .notNull()
    .references(() => oauthApplications.id, { onDelete: 'cascade' }),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  clientId: integer('client_id').references(() => clients.id, { onDelete: 'cascade' }),
  verifierHash: text('verifier_hash'),
  expiresAt: ts('expires_at').notNull(),
  authorizedAt: ts('authorized_at'),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** An app's read-only access to one user's one tax account; revocable by the user. */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => oauthApplications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('oauth_grants_user_idx').on(t.userId)],
);
