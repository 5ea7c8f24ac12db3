// Server settings from the environment (README lists them); defaults give the embedded setup.
import { resolve } from 'node:path';
import type { AppConfig } from './context';
import { DEFAULT_CONFIG } from './context';
import { SAT_ESTADO_PRODUCTION_URL } from './sat/estado-cfdi';

export interface ServerEnv {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom?: string;
  supportPassword?: string;
  /** SAT's CFDI status service; unset = never call SAT (dev, tests). SAT_ESTADO_URL, or SAT_ESTADO=on for production's. */
  satEstadoUrl?: string;
  app: AppConfig;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const smtpUrl = env.SMTP_URL || undefined;
  return {
    port: Number(env.PORT) || 8080,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl,
    mailFrom: env.MAIL_FROM || undefined,
    supportPassword: env.SUPPORT_PASSWORD || undefined,
    satEstadoUrl: env.SAT_ESTADO_URL || (env.SAT_ESTADO === 'on' ? SAT_ESTADO_PRODUCTION_URL : undefined),
    app: {
      ...DEFAULT_CONFIG,
      publicUrl: env.PUBLIC_URL || undefined,
      trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
      staticDir: resolve(env.STATIC_DIR || './dist'),
      devMailbox: !smtpUrl,
      altchaHmacKey: env.ALTCHA_HMAC_KEY || undefined,
      banxicoToken: env.BANXICO_TOKEN || undefined,
      banxicoUrl: env.BANXICO_URL || undefined,
    },
  };
}

/** SAT sync's portal (issue 7): SAT_PORTAL=descarga-masiva for SAT's web service (SAT_WS_URL overrides its base URL); else the simulated portal. */
export function readSatPortalEnv(env: NodeJS.ProcessEnv = process.env): { portal: 'simulated' | 'descarga-masiva'; wsUrl?: string } {
  return { portal: env.SAT_PORTAL === 'descarga-masiva' ? 'descarga-masiva' : 'simulated', wsUrl: env.SAT_WS_URL || undefined };
}
