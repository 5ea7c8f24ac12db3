// What every sub-app receives (dependencies, configuration) and the per-request variables they share.
import type { Context } from 'hono';
import type { Database, Db } from './db/client';
import type { Bus } from './db/bus';
import type { RateLimits } from './lib/ip-limiter';
import type { AccountsCache } from './accounts/accounts-cache';
import type { Mailer } from './mail/mailer';
import type { SessionCache } from './accounts/sessions';
import type { FileStore } from './files/file-store';
import type { RateSource } from './rates/rates';
import type { ImportQueue } from './imports/queue';
import type { InvoiceQueue } from './invoicing/queue';

export type Clock = () => Date;

export interface AppConfig {
  /** Base of every link we send (e-mails, QR codes): PUBLIC_URL, else the address the server listens on. Never the request's Host. */
  publicUrl: string;
  /** Trust X-Forwarded-For / X-Forwarded-Proto (behind a proxy). */
  trustProxy: boolean;
  /** Directory of the built PWA; absent = no static files. */
  staticDir?: string;
  /** The development tools (/dev/…: mailbox, merchant tickets, simulated SAT portal), for loopback clients only. readEnv decides (devToolsAllowed). */
  devTools: boolean;
  /** ALTCHA HMAC key; absent = generated once and kept in the settings table. */
  altchaHmacKey?: string;
  /** Proof-of-work size: ~1 s on a phone at 50 000. */
  captchaMaxNumber: number;
  /** How long a resolved token stays in the in-process cache. */
  sessionCacheMs: number;
  /** Banxico SIE token: when set, exchange rates come from Banxico's FIX series (cached in the rates table). */
  banxicoToken?: string;
  /** Banxico SIE REST base URL (tests point it at a local server). */
  banxicoUrl?: string;
  /** The app's App Store and Google Play pages (APP_STORE_URL, PLAY_STORE_URL); unset = no store link is shown. */
  appStoreUrl?: string;
  playStoreUrl?: string;
}

export const DEFAULT_CONFIG: AppConfig = {
  publicUrl: 'http://localhost:8080',
  trustProxy: false,
  devTools: true,
  captchaMaxNumber: 50_000,
  sessionCacheMs: 5_000,
};

export interface AppDeps {
  db: Db;
  mailer: Mailer;
  clock?: Clock;
  config?: Partial<AppConfig>;
  /** Database['listen'] where it is exact (PGlite): enables the accounts cache. */
  listen?: Database['listen'];
  /** Database['bus']: revoked sessions reach every API process; absent = this process only. */
  bus?: Bus;
  /** Where rate limits count (lib/ip-limiter.ts): the database when several processes serve; absent = this process. */
  limits?: RateLimits;
  /** Uploaded files; absent = kept in memory (tests). */
  files?: FileStore;
  /** Exchange rates; absent = Banxico when config.banxicoToken is set, else the rates table. */
  rates?: RateSource;
  /** Where 'Importar CFDIs' hands uploads over (the pg-boss import job); absent = uploads answer 503. */
  imports?: ImportQueue;
  /** Where invoice requests go (the pg-boss invoice job); absent = invoice requests answer 503. */
  invoicing?: InvoiceQueue;
}

/** Dependencies after defaults are applied; what sub-apps get. */
export interface Services {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  config: AppConfig;
  sessions: SessionCache;
  accounts: AccountsCache;
  files: FileStore;
  rates: RateSource;
  /** Makes a rate limit (lib/ip-limiter.ts), shared by every API process when they are several. */
  limits: RateLimits;
  /** The caller a request's session token names (null = none or not valid); may refuse the request (throws). */
  authenticate: Authenticate;
}

export interface AuthUser {
  userId: number;
  sessionId: number;
}

/** Resolves the session token found in a request (undefined = none was given) to its caller. */
export type Authenticate = (c: Context<AppEnv>, token: string | undefined) => Promise<AuthUser | null>;

export interface AppEnv {
  Variables: {
    /** Parsed JSON body of a mutating request ({} when empty). */
    body: unknown;
    /** Raw body text, for the idempotency fingerprint. */
    rawBody: string;
    /** The caller, once resolved from any of the four token places (null = no valid token). */
    auth: AuthUser | null | undefined;
    ip: string;
  };
}
