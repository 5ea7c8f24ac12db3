// The SAT portal port: what the daily sync needs from SAT, whoever answers — the
// embedded simulated portal (default, simulated-portal.ts) or SAT's Descarga Masiva web service
// (descarga-masiva.ts). Downloads are asynchronous as Descarga Masiva is (query → verify → download):
// the job submits a request for a day and a direction, keeps its id, and collects it later; a portal
// that has the files at once simply answers 'ready' on the first collect.
import { Credential } from '@nodecfdi/credentials/node';
import { MSG } from '../../domain/messages';
import type { SatMethod } from '../../domain/sat-sync';

export type SatDirection = 'issued' | 'received';
export const SAT_DIRECTIONS: readonly SatDirection[] = ['issued', 'received'];

/** What the job hands the portal to act for an account (opened from sat_connections). */
export type SatCredentials =
  | { method: 'ciec'; rfc: string; ciec: string }
  | { method: 'efirma'; rfc: string; cer: Uint8Array; key: Uint8Array; password: string };

/** A file SAT gave back: one CFDI XML, or a package (zip) of them. */
export interface SatFile {
  name: string;
  kind: 'xml' | 'zip';
  bytes: Uint8Array;
}

export type SatCollect = { state: 'pending' } | { state: 'ready'; files: SatFile[] };

/** The portal refused or failed (network, SAT's own errors): the job is retried later. */
export class SatPortalError extends Error {}

/** An e.firma the user uploaded does not do: the message says why, in Spanish. */
export class EfirmaError extends Error {}

export interface EfirmaFacts {
  serial: string;
  validUntil: Date;
}

export interface SatPortal {
  readonly name: string;
  /** The methods it takes (the sync page offers these). */
  readonly methods: readonly SatMethod[];
  /** Whether the CIEC opens the portal for this RFC (only when methods has 'ciec'). */
  authenticate(rfc: string, ciec: string): Promise<boolean>;
  /** Asks for one Mexico City day's (YYYY-MM-DD) CFDI XMLs of one direction; answers the request id. */
  submit(cred: SatCredentials, day: string, direction: SatDirection): Promise<string>;
  /** The request's files when ready. */
  collect(cred: SatCredentials, requestId: string): Promise<SatCollect>;
}

/**
 * Opens an uploaded e.firma and checks it is one: a FIEL (not a CSD) of `rfc`, valid at `now`, whose
 * key opens with the password and belongs to the certificate. Throws EfirmaError with the user's message.
 */
export function inspectEfirma(rfc: string, cer: Uint8Array, key: Uint8Array, password: string, now: Date): EfirmaFacts {
  const binary = (b: Uint8Array) => Buffer.from(b).toString('binary');
  let credential: Credential;
  try {
    credential = Credential.create(binary(cer), binary(key), password);
  } catch {
    throw new EfirmaError(MSG.efirmaInvalid);
  }
  if (!credential.isFiel()) throw new EfirmaError(MSG.efirmaNotFiel);
  if (credential.rfc().toUpperCase() !== rfc.toUpperCase()) throw new EfirmaError(MSG.efirmaWrongRfc);
  const certificate = credential.certificate();
  const validUntil = certificate.validTo();
  if (validUntil.getTime() < now.getTime()) throw new EfirmaError(MSG.efirmaExpired);
  return { serial: certificate.serialNumber().bytes(), validUntil };
}
