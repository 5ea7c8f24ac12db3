// Drizzle schema of the API (pg-core): the same tables and migrations on PGlite and PostgreSQL.
import { sql } from 'drizzle-orm';
import type { ReceiptDetails as ReceiptDetailsJson } from '../../domain/ticket';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
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
    /** Régimen fiscal (c_RegimenFiscal, e.g. '612'): CFDI 4.0's RegimenFiscalReceptor; '' until given. */
    taxRegime: text('tax_regime').notNull().default(''),
    /** When this user proved they hold the RFC (e.firma challenge or an accepted SAT connection); null = unverified. */
    rfcVerifiedAt: ts('rfc_verified_at'),
    /** How it was proved: 'efirma' | 'sat'. */
    rfcVerifiedBy: text('rfc_verified_by'),
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
    /** 'running' while the first request executes, then 'done' — or 'secret': ran, response not kept (idempotency.ts). */
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

/** A file attached to a dev-mailbox message: kept inline (base64) because the dev mailbox is for trying the app. */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  base64: string;
}

export const mailMessages = pgTable('mail_messages', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  cc: text('cc'),
  replyTo: text('reply_to'),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  attachments: jsonb('attachments').$type<StoredAttachment[]>().notNull().default([]),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().default(sql`now()`),
});

/** Supported companies (merchants) for /company/all.json; id 1 is 'Registro manual' (DESIGN §3). */
export const companies = pgTable('companies', {
  /** Exposed as diverza_client_id and used as company[id]. */
  id: integer('id').primaryKey(),
  shortName: text('short_name').notNull().unique(),
  name: text('name').notNull(),
  /** Public path of the logo, exposed as value. */
  logo: text('logo').notNull().default(''),
  /** 'manual' | 'cfdi' (our own origins) | 'merchant' (invoices its tickets through us). */
  kind: text('kind').notNull().default('merchant'),
  /** Issuer data of a merchant (CFDI 4.0 Emisor and LugarExpedicion); '' for our own origins. */
  rfc: text('rfc').notNull().default(''),
  legalName: text('legal_name').notNull().default(''),
  taxRegime: text('tax_regime').notNull().default(''),
  postalCode: text('postal_code').notNull().default(''),
  /** The merchant's CSD as SAT delivers it, base64: the .cer (DER) and the encrypted .key (PKCS#8 DER). */
  csdCer: text('csd_cer'),
  csdKey: text('csd_key'),
  /** The .key's password, encrypted at rest (AES-256-GCM under the server's secret). */
  csdPasswordEnc: text('csd_password_enc'),
  /** SHA-256 (hex) of the point-of-sale API key (X-Merchant-Key); the key itself is never stored. */
  apiKeyHash: text('api_key_hash'),
});

/**
 * A merchant's ticket form (spec §3 Form field definition, §5 dynamic merchant fields). `id` is the
 * form_configuration_id the client sends back with each value; `meaning` says which fact of a merchant
 * ticket the value is checked against when the ticket is verified.
 */
export const formFields = pgTable(
  'form_fields',
  {
    id: integer('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    fieldName: text('field_name').notNull(),
    /** Spec §3 form field types: 1 integer, 2/6 text, 4 date, 7 six blocks of four digits, 8 select, 9 decimal, 11 label. */
    typeId: smallint('type_id').notNull(),
    minLength: smallint('min_length'),
    helperImage: text('helper_image'),
    options: jsonb('options').$type<{ option_id: number; option_title: string }[]>().notNull().default([]),
    /** 'ticket_number' | 'date' | 'amount' | 'venue' | 'check' | 'label' | 'other' */
    meaning: text('meaning').notNull(),
  },
  (t) => [index('form_fields_company_idx').on(t.companyId, t.position)],
);

export const tickets = pgTable(
  'tickets',
  {
    /** The client's UUIDv7 when it made one offline, else made by the server. */
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The tax account (RFC) it belongs to. */
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    type: smallint('type').notNull(),
    statusId: smallint('status_id').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    ticketNumber: text('ticket_number').notNull().default(''),
    /** MXN. */
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    receivedAt: ts('received_at').notNull(),
    note: text('note').notNull().default(''),
    metaTagId: integer('meta_tag_id').references(() => metaTags.id),
    incomeMetaTagId: integer('income_meta_tag_id').references(() => incomeMetaTags.id),
    currency: text('currency').notNull().default('MXN'),
    originalAmount: numeric('original_amount', { precision: 14, scale: 2 }),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** Server-made key in the files store; never derived from the uploaded file's name. */
    imageKey: text('image_key'),
    imageType: text('image_type'),
    imageSize: integer('image_size'),
    /** The CFDI behind the ticket (imported or issued), if any. */
    receiptId: uuid('receipt_id').references((): AnyPgColumn => receipts.id, { onDelete: 'set null' }),
    /** Soft delete: the row stays as a tombstone so late replays get a clear 404. */
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** Position in its account's change feed: a trigger sets it on every write (migration 0015), except the import's inserts, which hold the feed lock and keep this column's default, a value taken after the lock (0018). */
    changeSeq: bigint('change_seq', { mode: 'number' }).notNull().default(sql`nextval('ticket_change_seq')`),
  },
  (t) => [
    index('tickets_client_received_idx').on(t.clientId, t.receivedAt),
    index('tickets_user_id_idx').on(t.userId),
    index('tickets_client_change_idx').on(t.clientId, t.changeSeq),
    index('tickets_receipt_id_idx').on(t.receiptId).where(sql`${t.receiptId} is not null`),
  ],
);

/** Orders every ticket write and hard delete of all accounts (the change feed's cursor). */
export const ticketChangeSeq = pgSequence('ticket_change_seq');

/** A hard-deleted ticket (or one moved to another account), kept so the account's change feed reports it. */
export const ticketTombstones = pgTable(
  'ticket_tombstones',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    changeSeq: bigint('change_seq', { mode: 'number' }).notNull(),
    ticketId: uuid('ticket_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.changeSeq] })],
);

/** MXN per 1 unit of base, per publication date: Banxico's FIX cached, or entered by staff. */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    base: text('base').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    rate: numeric('rate', { precision: 12, scale: 6 }).notNull(),
    /** 'banxico' | 'manual' */
    source: text('source').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.base, t.date] })],
);

/**
 * A CFDI kept for a tax account (spec §3 Receipt): its facts for lists and reports, and its files in the
 * files store — the XML byte for byte as received or stamped, and a PDF (imported, or rendered from the XML
 * on first request and kept). One UUID once per tax account: the issuer and the receiver of the same CFDI
 * each keep their own copy.
 */
export const receipts = pgTable(
  'receipts',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** The TimbreFiscalDigital's UUID, uppercase. */
    uuid: text('uuid').notNull(),
    version: text('version').notNull(),
    rfcIssuer: text('rfc_issuer').notNull(),
    nameIssuer: text('name_issuer').notNull().default(''),
    rfcReceiver: text('rfc_receiver').notNull(),
    nameReceiver: text('name_receiver').notNull().default(''),
    /** As written in the CFDI: Mexico City local time, no offset. */
    emissionDate: text('emission_date').notNull(),
    total: numeric('total', { precision: 18, scale: 2 }).notNull(),
    currency: text('currency').notNull().default('MXN'),
    /** Total in MXN (TipoCambio applied). */
    amountMxn: numeric('amount_mxn', { precision: 18, scale: 2 }).notNull(),
    impTras: numeric('imp_tras', { precision: 18, scale: 2 }).notNull().default('0'),
    impRet: numeric('imp_ret', { precision: 18, scale: 2 }).notNull().default('0'),
    metodoPago: text('metodo_pago').notNull().default(''),
    numCtaPago: text('numctapago').notNull().default(''),
    xmlKey: text('xml_key').notNull(),
    xmlSize: integer('xml_size').notNull(),
    /** null until a PDF was imported or rendered. */
    pdfKey: text('pdf_key'),
    pdfSize: integer('pdf_size'),
    /** 'imported' | 'rendered' */
    pdfSource: text('pdf_source'),
    /** SAT's answer for this CFDI ('Vigente', 'Cancelado', 'No encontrado'); null until checked. */
    satStatus: text('sat_status'),
    satCheckedAt: ts('sat_checked_at'),
    /** TipoDeComprobante: 'I' | 'E' | 'P' | 'N' | 'T' (DESIGN §5: what each means in the books). */
    tipo: text('tipo').notNull().default('I'),
    /** What the row shows beyond the facts above, per tipo: see ReceiptDetails in domain/ticket.ts. */
    details: jsonb('details').$type<ReceiptDetailsJson>().notNull().default({}),
    /** The CFDI's Sello checked against its certificate and SAT's cadena: 'valido' | 'invalido' | 'sin_sello' | 'sin_verificar'. */
    seal: text('seal').notNull().default('sin_verificar'),
    /** The timbre's SelloSAT checked against the PAC certificate when we have it: 'valido' | 'invalido' | 'sin_verificar'. */
    sealSat: text('seal_sat').notNull().default('sin_verificar'),
    /** SAT's CFDI 4.0 rules this CFDI breaks (code + Spanish explanation), found on import. */
    findings: jsonb('findings').$type<{ code: string; message: string }[]>().notNull().default([]),
    /** Our cancellation through the PAC: null | 'en_proceso' | 'cancelada' | 'rechazada'. */
    cancelStatus: text('cancel_status'),
    /** The UUID that replaced this CFDI (refacturar: motive 01, FolioSustitucion). */
    replacedBy: text('replaced_by'),
    /**
     * The version of the books rules its row was read with: 0 = stored before CFDI types, seals and
     * findings were read (re-read once from its XML by imports/reclassify.ts), 1 = today's.
     */
    booksVersion: smallint('books_version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('receipts_client_uuid_idx').on(t.clientId, t.uuid),
    index('receipts_user_id_idx').on(t.userId),
    // Every import asks whether the CFDI arriving are known cancelled or replaced in any account: only
    // those few rows are indexed, so the question costs a lookup, not a scan of every receipt.
    index('receipts_cancelled_uuid_idx')
      .on(t.uuid)
      .where(sql`${t.cancelStatus} is not null or ${t.replacedBy} is not null or ${t.satStatus} = 'Cancelado'`),
  ],
);

/**
 * What a payment CFDI (tipo P) pays: one row per DoctoRelacionado, in the tax account that holds the
 * payment. The paid invoice is found by its UUID (it may be imported later, or never), so its row can
 * say 'Pagada', 'Pago parcial' or 'Pendiente de pago'.
 */
export const cfdiPayments = pgTable(
  'cfdi_payments',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** The payment CFDI's receipt. */
    receiptId: uuid('receipt_id')
      .notNull()
      .references(() => receipts.id, { onDelete: 'cascade' }),
    /** IdDocumento: the paid invoice's UUID, uppercase. */
    documentUuid: text('document_uuid').notNull(),
    /** Position of the payment inside the complement (Pago n, DoctoRelacionado m), so one CFDI may pay a document twice. */
    seq: integer('seq').notNull(),
    numParcialidad: integer('num_parcialidad'),
    currency: text('currency').notNull(),
    impSaldoAnt: numeric('imp_saldo_ant', { precision: 18, scale: 2 }),
    impPagado: numeric('imp_pagado', { precision: 18, scale: 2 }).notNull(),
    impSaldoInsoluto: numeric('imp_saldo_insoluto', { precision: 18, scale: 2 }),
    /** FechaPago as written. */
    paidAt: text('paid_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.receiptId, t.seq] }), index('cfdi_payments_document_idx').on(t.clientId, t.documentUuid)],
);

/**
 * Monthly totals per tax account (DESIGN §4 "keep monthly totals"), kept by statement-level triggers on
 * tickets (migration 0004) so every writer — API, jobs, plain SQL — keeps them exact. Analytics and
 * stats read these few rows instead of scanning a year of tickets. One row per Mexico City month, type,
 * category (0 = none) and venue (the CFDI issuer's name, else the supported company's).
 */
export const ticketMonthTotals = pgTable(
  'ticket_month_totals',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** First day of the Mexico City month. */
    month: date('month', { mode: 'string' }).notNull(),
    type: smallint('type').notNull(),
    metaTagId: integer('meta_tag_id').notNull(),
    venue: text('venue').notNull(),
    total: numeric('total', { precision: 18, scale: 2 }).notNull(),
    tickets: integer('tickets').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.month, t.type, t.metaTagId, t.venue] })],
);

/**
 * Files handed to 'Importar CFDIs' and what became of each: one row per uploaded file, and one
 * per XML or PDF found inside an uploaded zip (parent_id). The bytes live in the files store under a
 * server-made key; `name` is only shown, never used as a path.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The tax account chosen when uploading; null = any of the user's accounts the CFDI names. */
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    /** The zip this entry came from. */
    parentId: uuid('parent_id'),
    name: text('name').notNull(),
    /** 'xml' | 'pdf' | 'zip' */
    kind: text('kind').notNull(),
    size: integer('size').notNull(),
    /** null once processed and no longer needed (zip entries are read from their zip). */
    fileKey: text('file_key'),
    /** 'recibido' | 'procesando' | 'importado' | 'duplicado' | 'rechazado' */
    status: text('status').notNull(),
    /** Why it was refused, in Spanish for the user. */
    reason: text('reason'),
    /** The tickets it made or matched. */
    ticketIds: jsonb('ticket_ids').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('uploads_user_updated_idx').on(t.userId, t.updatedAt),
    index('uploads_parent_idx').on(t.parentId),
    // The hourly sweep of uploads left unfinished reads only these (few) rows.
    index('uploads_unfinished_idx').on(t.updatedAt).where(sql`${t.status} in ('recibido', 'procesando')`),
  ],
);

/**
 * The bytes a user's kept uploads take (top-level, not refused): the upload quota reads this one row.
 * Kept by triggers on uploads (migration 0019), never written by the app.
 */
export const uploadStorage = pgTable('upload_storage', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
});

/**
 * A ticket a merchant's point of sale registered with us (POST /api/v3/merchants/{short_name}/tickets):
 * what the printed ticket says, and what its invoice is made of. `ref` is the public reference printed as QR
 * and used by the receipt view (`tickets?ref=…`); `invoice_request_id` is set, once, by the request that
 * invoices it — the guard that makes a second request for the same ticket impossible.
 */
export const merchantTickets = pgTable(
  'merchant_tickets',
  {
    id: uuid('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ref: text('ref').notNull(),
    ticketNumber: text('ticket_number').notNull(),
    /** Branch or venue name printed on the ticket ('Sucursal'). */
    venue: text('venue').notNull().default(''),
    /** LugarExpedicion: the branch's postal code. */
    postalCode: text('postal_code').notNull(),
    issuedAt: ts('issued_at').notNull(),
    /** [{description, quantity, unit_price, clave_prod_serv, clave_unidad, iva}] with gross unit prices. */
    items: jsonb('items').$type<MerchantTicketItem[]>().notNull(),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    tax: numeric('tax', { precision: 14, scale: 2 }).notNull(),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    /** c_FormaPago of the sale (01 cash, 04 credit card, 28 debit card…). */
    formaPago: text('forma_pago').notNull(),
    /** Short code printed on the ticket, asked by some forms (meaning 'check'). */
    checkCode: text('check_code').notNull().default(''),
    invoiceRequestId: uuid('invoice_request_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('merchant_tickets_ref_idx').on(t.ref),
    uniqueIndex('merchant_tickets_company_number_idx').on(t.companyId, t.ticketNumber),
  ],
);

export interface MerchantTicketItem {
  description: string;
  quantity: string;
  /** Gross (IVA included) unit price, as printed. */
  unit_price: string;
  clave_prod_serv: string;
  clave_unidad: string;
  /** 'IVA16' | 'IVA8' | 'IVA0' | 'EXENTO' */
  iva: string;
}

/**
 * A request to invoice one or more merchant tickets: who receives the CFDI and where it is on
 * its path — 'solicitada' → 'timbrada' → 'enviada', or 'error' with a Spanish message and a retry. Runs as a
 * durable job; the sealed XML is kept before stamping so a retry re-sends the same document and the PAC
 * answers with the same stamp (never two invoices).
 */
export const invoiceRequests = pgTable(
  'invoice_requests',
  {
    id: uuid('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** null for the anonymous form. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'set null' }),
    /** The requester's own ticket that shows the path and becomes 'facturado'; null when anonymous. */
    ticketId: uuid('ticket_id'),
    /** 'form' | 'merchant' | 'anonymous' | 'multi' */
    channel: text('channel').notNull(),
    /** {rfc, nombre, codigo_postal, regimen_fiscal, uso_cfdi, residencia_fiscal?, num_reg_id_trib?} */
    receiver: jsonb('receiver').$type<InvoiceReceiver>().notNull(),
    email: text('email').notNull(),
    note: text('note').notNull().default(''),
    /** 'solicitada' | 'timbrada' | 'enviada' | 'error' | 'sustituida' */
    status: text('status').notNull(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** The request this one replaces (refacturar). */
    replacesId: uuid('replaces_id'),
    sealedXmlKey: text('sealed_xml_key'),
    uuid: text('uuid'),
    xmlKey: text('xml_key'),
    pdfKey: text('pdf_key'),
    receiptId: uuid('receipt_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    stampedAt: ts('stamped_at'),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('invoice_requests_ticket_idx').on(t.ticketId),
    index('invoice_requests_user_idx').on(t.userId, t.createdAt),
    // Imports look up whether a CFDI arriving was replaced by a refacturación.
    index('invoice_requests_replaced_uuid_idx').on(t.uuid).where(sql`${t.status} = 'sustituida'`),
  ],
);

export interface InvoiceReceiver {
  rfc: string;
  nombre: string;
  codigo_postal: string;
  regimen_fiscal: string;
  uso_cfdi: string;
  residencia_fiscal?: string;
  num_reg_id_trib?: string;
}

/** RFCs SAT lists as not able to receive invoices (69-B, no localizados, cancelados…), imported from its published lists. */
export const inactiveRfcs = pgTable('inactive_rfcs', {
  rfc: text('rfc').primaryKey(),
  /** Which SAT list it came from, shown to staff. */
  list: text('list').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * A tax account's paid plan: what the payment provider charges and when. Card data never
 * touches our database beyond brand, last 4 and expiry; the provider's customer and payment-method ids
 * are kept so renewals can charge again. One row per tax account.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    /** 'sandbox' | 'stripe' */
    provider: text('provider').notNull(),
    providerCustomer: text('provider_customer'),
    providerPaymentMethod: text('provider_payment_method'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpMonth: smallint('card_exp_month'),
    cardExpYear: smallint('card_exp_year'),
    /** 'active' | 'past_due' (renewal failed, in grace) | 'canceling' (cancelled by its owner: runs to the period's end, never renewed) | 'canceled' */
    status: text('status').notNull(),
    currentPeriodEnd: ts('current_period_end').notNull(),
    /** Until when a failed renewal keeps access. */
    graceUntil: ts('grace_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_client_idx').on(t.clientId), index('subscriptions_period_end_idx').on(t.status, t.currentPeriodEnd)],
);

/** Every charge attempt (spec §3 Payment history item): first payment and renewals, successful or not. */
export const payments = pgTable(
  'payments',
  {
    /** The provider's charge id (or ours for a refused attempt without one), shown uppercased. */
    id: text('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull(),
    /** MXN with IVA. */
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    successful: boolean('successful').notNull(),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** 'subscribe' | 'renewal' */
    kind: text('kind').notNull(),
    /** Why it failed, in Spanish for the user. */
    failure: text('failure'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('payments_client_idx').on(t.clientId, t.createdAt)],
);

/** Stripe webhook events already handled: Stripe delivers at least once, each event id acts once. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

/** Support chat: one conversation per user at a time, answered from the staff inbox. */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'open' | 'closed' */
    status: text('status').notNull(),
    /** Messages the other side has not read yet. */
    unreadByUser: integer('unread_by_user').notNull().default(0),
    unreadByStaff: integer('unread_by_staff').notNull().default(0),
    lastMessageAt: ts('last_message_at').notNull().defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('chat_conversations_user_idx').on(t.userId), index('chat_conversations_last_idx').on(t.status, t.lastMessageAt)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    /** 'user' | 'staff' */
    author: text('author').notNull(),
    /** The staff member who answered (null for the user's own messages). */
    staffUserId: integer('staff_user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('chat_messages_conversation_idx').on(t.conversationId, t.createdAt)],
);

/**
 * SAT sync: how one tax account connects to SAT. Secrets are sealed with the server
 * secret (lib/secret-box.ts, context `sat:<what>:<client_id>`): the CIEC, and the e.firma's key
 * password. The e.firma's .cer and .key are kept as base64 (the .key is itself encrypted by SAT's format
 * under that password). One row per account; erased on disconnect.
 */
export const satConnections = pgTable('sat_connections', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id, { onDelete: 'cascade' }),
  /** 'ciec' | 'efirma' */
  method: text('method').notNull(),
  ciecEnc: text('ciec_enc'),
  efirmaCer: text('efirma_cer'),
  efirmaKey: text('efirma_key'),
  efirmaPasswordEnc: text('efirma_password_enc'),
  certSerial: text('cert_serial'),
  certValidUntil: ts('cert_valid_until'),
  /** A sync is queued or running. */
  running: boolean('running').notNull().default(false),
  lastRunAt: ts('last_run_at'),
  lastOkAt: ts('last_ok_at'),
  /** The last attempt's error in Spanish (cleared by a success). */
  lastError: text('last_error'),
  lastImported: integer('last_imported'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The embedded simulated SAT portal's accounts (development and tests): an RFC and its CIEC's hash. */
export const satPortalAccounts = pgTable('sat_portal_accounts', {
  rfc: text('rfc').primaryKey(),
  /** argon2id of the CIEC (lib/passwords.ts): never the CIEC itself. */
  ciecHash: text('ciec_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * One day's download of one direction for one account: SAT's Descarga Masiva is asynchronous (query →
 * verify → download), so the job keeps the request id here and comes back for it.
 */
export const satDownloads = pgTable(
  'sat_downloads',
  {
    id: uuid('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** The Mexico City day, YYYY-MM-DD. */
    day: text('day').notNull(),
    /** 'issued' | 'received' */
    direction: text('direction').notNull(),
    /** The portal's request id (null until submitted). */
    requestId: text('request_id'),
    /** 'pending' | 'submitted' | 'imported' */
    state: text('state').notNull(),
    /** The uploads rows its files became. */
    uploadIds: jsonb('upload_ids').$type<string[]>().notNull().default([]),
    /** CFDI it imported (new tickets). */
    imported: integer('imported').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sat_downloads_day_idx').on(t.clientId, t.day, t.direction)],
);
