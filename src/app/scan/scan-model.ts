// What the scan dialog does with a decoded QR text ('Escanear código'): pure, so tests cover it.
import { MSG } from '../../domain/messages';
import { parseScannedQr, type CfdiQr } from '../../domain/qr-payload';

export type ScanOutcome =
  | { kind: 'merchant'; href: string }
  | { kind: 'cfdi'; qr: CfdiQr }
  | { kind: 'unknown'; message: string };

/** The app path a merchant ticket QR opens: the same path the printed link has, so both behave alike. */
export function merchantHref(short: string, ref: string, check: string, total: string): string {
  const q = new URLSearchParams({ ref, check, total });
  return `/merchant/${encodeURIComponent(short)}?${q.toString()}`;
}

export function scanOutcome(text: string): ScanOutcome {
  const qr = parseScannedQr(text);
  if (!qr) return { kind: 'unknown', message: MSG.qrNotRecognized };
  if (qr.kind === 'merchant') return { kind: 'merchant', href: merchantHref(qr.short_name, qr.ref, qr.check, qr.total) };
  return { kind: 'cfdi', qr };
}

/** The dialog's states. 'starting' until the camera shows frames; 'cfdi' while/after looking an invoice up. */
export type ScanState =
  | { step: 'starting' }
  /** notice: why the last code read was not used (the camera keeps reading). */
  | { step: 'scanning'; notice?: string }
  | { step: 'camera-error'; message: string }
  | { step: 'cfdi'; qr: CfdiQr };

export type ScanEvent =
  | { type: 'camera-ready' }
  | { type: 'camera-failed' }
  | { type: 'decoded'; outcome: Exclude<ScanOutcome, { kind: 'merchant' }> }
  | { type: 'retry' };

export function scanReducer(state: ScanState, ev: ScanEvent): ScanState {
  switch (ev.type) {
    case 'camera-ready':
      return state.step === 'starting' ? { step: 'scanning' } : state;
    case 'camera-failed':
      return { step: 'camera-error', message: MSG.cameraUnavailable };
    case 'decoded':
      if (state.step !== 'scanning') return state;
      return ev.outcome.kind === 'cfdi' ? { step: 'cfdi', qr: ev.outcome.qr } : { step: 'scanning', notice: ev.outcome.message };
    case 'retry':
      return { step: 'starting' };
  }
}

/** True while the camera should be on. */
export const wantsCamera = (s: ScanState): boolean => s.step === 'starting' || s.step === 'scanning';

/** Minimum time between two decode attempts: about 10 frames a second at most. */
export const FRAME_INTERVAL_MS = 100;
