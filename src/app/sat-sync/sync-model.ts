// The SAT sync page's rules and flows (spec §4 SAT sync, §5, §8), kept out of the component so they are
// tested without a browser: the password checks in their order, the e.firma file checks, what the status
// card says, and the connect / upload / disconnect sequences with the HTTP layer behind sync-api.ts.
// A password is only ever sent online and never stored on the device (no outbox, no IndexedDB).
import type { Account } from '../../domain/account';
import { lastSyncDate } from '../../domain/dates';
import { MSG } from '../../domain/messages';
import { EFIRMA_FILE_MAX_BYTES, SAT_PASSWORD_MAX, SAT_PASSWORD_MIN, type SatMethod, type SatSyncStatus } from '../../domain/sat-sync';
import { ApiError } from '../../offline/http';
import { authenticateSat, disconnectSat, saveSatPassword, uploadEfirma } from './sync-api';

export const SYNC_TXT = {
  title: 'Sincronización SAT',
  connected: 'Conexión activa',
  disconnected: 'Sin conexión',
  lastConnection: 'Última conexión',
  never: 'Aún no se ha sincronizado',
  running: 'Descargando tus comprobantes del SAT…',
  ciecTitle: 'Conectar con tu contraseña del SAT (CIEC)',
  password: 'Contraseña del SAT',
  confirm: 'Confirma tu contraseña',
  efirmaTitle: 'Método oficial del SAT: e.firma',
  disconnect: 'Desconectar',
} as const;

export type SatField = 'password' | 'confirm';

/** Spec §5, in order: both typed, SAT's length, then equal. */
export function checkSatPassword(password: string, confirm: string): { field: SatField; message: string } | null {
  if (!password) return { field: 'password', message: MSG.satPasswordEmpty };
  if (!confirm) return { field: 'confirm', message: MSG.satPasswordEmpty };
  if (password.length < SAT_PASSWORD_MIN || password.length > SAT_PASSWORD_MAX) return { field: 'password', message: MSG.satPasswordLength };
  if (password !== confirm) return { field: 'confirm', message: MSG.satPasswordsDiffer };
  return null;
}

export interface EfirmaDraft {
  cer: File | null;
  key: File | null;
  password: string;
}

export type EfirmaField = 'cer' | 'key' | 'password';

/** All three parts, and files small enough to be a certificate or a key (checked before sending). */
export function checkEfirma(d: EfirmaDraft): { field: EfirmaField; message: string } | null {
  if (!d.cer) return { field: 'cer', message: MSG.efirmaMissing };
  if (d.cer.size > EFIRMA_FILE_MAX_BYTES) return { field: 'cer', message: MSG.efirmaFileTooBig };
  if (!d.key) return { field: 'key', message: MSG.efirmaMissing };
  if (d.key.size > EFIRMA_FILE_MAX_BYTES) return { field: 'key', message: MSG.efirmaFileTooBig };
  if (!d.password) return { field: 'password', message: MSG.efirmaMissing };
  return null;
}

/** Spec §4: a saved password (or e.firma) = 'Conexión activa', none = 'Sin conexión'. */
export function isConnected(account: Pick<Account, 'ciec'>, status: Pick<SatSyncStatus, 'method'> | undefined): boolean {
  return status ? status.method !== null : account.ciec;
}

export function lastConnectionText(at: string | null): string {
  return at ? lastSyncDate(at) : SYNC_TXT.never;
}

/** What the last sync brought, in one sentence (null when there was none yet). */
export function lastResultText(s: Pick<SatSyncStatus, 'last_imported' | 'last_error'>): string | null {
  if (s.last_error) return s.last_error;
  if (s.last_imported === null) return null;
  if (s.last_imported === 0) return 'La última sincronización no encontró comprobantes nuevos.';
  if (s.last_imported === 1) return 'La última sincronización trajo 1 comprobante nuevo.';
  return `La última sincronización trajo ${s.last_imported} comprobantes nuevos.`;
}

/**
 * After a save, the status card says the sync started (MSG.satSyncStarted) until a status read after the
 * save shows that sync done; meanwhile the previous sync's result is not shown (it would contradict it).
 */
export function showsSyncStarted(savedAt: number | null, status: Pick<SatSyncStatus, 'running'> | undefined, readAt: number): boolean {
  if (savedAt === null) return false;
  return !status || status.running || readAt < savedAt;
}

/** Which forms the page offers; while the status is unknown (offline, error) both. */
export function offeredMethods(status: Pick<SatSyncStatus, 'methods'> | undefined): readonly SatMethod[] {
  return status ? status.methods : ['ciec', 'efirma'];
}

export type ConnectOutcome =
  | { kind: 'ok' }
  | { kind: 'invalid'; message: string }
  | { kind: 'unavailable'; message: string }
  | { kind: 'offline'; message: string }
  | { kind: 'error'; message: string };

function failure(err: unknown, on400: (e: ApiError) => ConnectOutcome): ConnectOutcome {
  if (err instanceof ApiError) {
    if (err.offline) return { kind: 'offline', message: MSG.satOffline };
    if (err.status === 400) return on400(err);
    if (err.status === 422) return { kind: 'unavailable', message: MSG.satMethodUnavailable };
    return { kind: 'error', message: err.message };
  }
  return { kind: 'error', message: MSG.generic };
}

export interface FlowContext {
  userId: number;
  rfc: string;
  online: boolean;
  /** Reloads the accounts into Dexie (account.ciec, synchronized_at); its failure is not the user's problem. */
  reload: () => Promise<void>;
}

/** Spec §7: SAT authenticate, then save the SAT password, then the accounts reload. */
export async function connectCiec(ctx: FlowContext, password: string): Promise<ConnectOutcome> {
  if (!ctx.online) return { kind: 'offline', message: MSG.satOffline };
  try {
    await authenticateSat({ rfc: ctx.rfc, clave_ciec: password });
    await saveSatPassword(ctx.userId, ctx.rfc, { sat_password: password });
  } catch (err) {
    return failure(err, () => ({ kind: 'invalid', message: MSG.satPasswordInvalid }));
  }
  await ctx.reload().catch(() => undefined);
  return { kind: 'ok' };
}

/** The official method: the e.firma's parts as multipart; the server's MSG.efirma* message on 400/422. */
export async function connectEfirma(ctx: FlowContext, d: { cer: File; key: File; password: string }): Promise<ConnectOutcome> {
  if (!ctx.online) return { kind: 'offline', message: MSG.satOffline };
  try {
    await uploadEfirma(ctx.userId, ctx.rfc, d);
  } catch (err) {
    if (err instanceof ApiError && !err.offline && (err.status === 400 || err.status === 422)) {
      return { kind: 'invalid', message: err.message === MSG.generic ? MSG.efirmaInvalid : err.message };
    }
    return failure(err, (e) => ({ kind: 'invalid', message: e.message }));
  }
  await ctx.reload().catch(() => undefined);
  return { kind: 'ok' };
}

export async function disconnect(ctx: FlowContext): Promise<ConnectOutcome> {
  if (!ctx.online) return { kind: 'offline', message: MSG.satOffline };
  try {
    await disconnectSat(ctx.userId, ctx.rfc);
  } catch (err) {
    return failure(err, (e) => ({ kind: 'error', message: e.message }));
  }
  await ctx.reload().catch(() => undefined);
  return { kind: 'ok' };
}
