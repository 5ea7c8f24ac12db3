// SAT sync (spec §2 SAT sync, §4, §5, §7): the daily download of a persona física's
// CFDIs of the previous day from SAT, imported through the import pipeline. This file is the contract
// between the sync page (src/app/sat-sync) and the server (src/server/sat-sync).
//
// Two ways to connect:
// - 'ciec': the SAT portal password of spec §2/§7 (checked by POST /api/v1/AuthenticateSATPortal,
//   saved by PUT /api/v3/users/{user_id}/branches/{rfc}.json). Served by the configured SAT portal:
//   the embedded simulated portal (default) knows it; SAT's Descarga Masiva web service does not.
// - 'efirma': the e.firma (FIEL .cer + .key + its password), which SAT's official bulk-download web
//   service (Descarga Masiva) requires (docs/cfdi-facts.md §7). The sync page offers it as the
//   official method.
import { hasFeature, type GateSubject } from './feature-gates';
import { RFC_COMPANY_LENGTH } from './rfc';

export type SatMethod = 'ciec' | 'efirma';

/** GET /api/v3/users/{user_id}/branches/{rfc}/sync → the sync page's state (no secret ever comes back). */
export interface SatSyncStatus {
  rfc: string;
  /** How the account is connected; null = 'Sin conexión'. */
  method: SatMethod | null;
  /** The methods the server's SAT portal accepts (the simulated portal: both; Descarga Masiva: efirma). */
  methods: SatMethod[];
  /** The e.firma's certificate serial and validity end, when connected by e.firma. */
  efirma: { serial: string; valid_until: string } | null;
  /** Last successful sync (ISO 8601); also the account's synchronized_at. */
  synchronized_at: string | null;
  /** CFDI the last successful sync imported (new tickets; duplicates not counted). */
  last_imported: number | null;
  /** The last attempt's error in Spanish, when it failed (cleared by a success). */
  last_error: string | null;
  /** A sync is queued or running right now. */
  running: boolean;
}

/** PUT /api/v3/users/{user_id}/branches/{rfc}.json body (spec §7 'Save SAT password'). Answer: the Account. */
export interface SaveSatPasswordBody {
  sat_password: string;
}

/** POST /api/v1/AuthenticateSATPortal body (spec §7). 200 {valid:true}; 400 {error: MSG.satPasswordInvalid}. */
export interface AuthenticateSatBody {
  rfc: string;
  clave_ciec: string;
}

/**
 * PUT /api/v3/users/{user_id}/branches/{rfc}/efirma, multipart/form-data: parts `cer` (the .cer file),
 * `key` (the .key file) and `password`. Answer: the Account. DELETE …/branches/{rfc}.json disconnects
 * (both methods): secrets erased, ciec false. Answer: the Account.
 */
export const EFIRMA_PARTS = { cer: 'cer', key: 'key', password: 'password' } as const;
/** A .cer or .key is a few KB; anything bigger is not one. */
export const EFIRMA_FILE_MAX_BYTES = 64 * 1024;

/** SAT's CIEC: 8 characters, letters and digits (SAT's rule); we accept up to 64 in case SAT changes it. */
export const SAT_PASSWORD_MIN = 8;
export const SAT_PASSWORD_MAX = 64;

/** Spec §5: SAT sync only for personas físicas; company (12-character) RFCs see the not-available page. */
export function satSyncForRfc(rfc: string): boolean {
  return rfc.length !== RFC_COMPANY_LENGTH;
}

/** What the sync route shows: the premium advert, the company notice, or the sync page itself. */
export function satSyncView(a: GateSubject): 'advert' | 'company' | 'page' {
  if (!hasFeature('SincronizacionSAT', a)) return 'advert';
  return satSyncForRfc(a.rfc) ? 'page' : 'company';
}
