// What a scanned code leads to, the dialog's state machine, and the frame loop with a fake decoder.
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { merchantTicketQrUrl } from '../../../src/domain/qr-payload';
import type { QrDecoder } from '../../../src/app/scan/decoder';
import { runScanLoop } from '../../../src/app/scan/scan-loop';
import { FRAME_INTERVAL_MS, scanOutcome, scanReducer, wantsCamera, type ScanState } from '../../../src/app/scan/scan-model';

const SAT_QR =
  'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=5FB2822E-396D-4725-8521-CDC4BDD20CCF&re=EKU9003173C9&rr=XAXX010101000&tt=121.000000&fe=Ld8qOA==';

describe('scanOutcome', () => {
  it('a merchant ticket QR opens its merchant form with ref, check and total', () => {
    const text = merchantTicketQrUrl('https://cuentas.example.mx', { short_name: 'cafe-roma', ref: 'K7Q2M9X4TB8C1ZP5', check: 'X9', total: '121.00' });
    expect(scanOutcome(text)).toEqual({ kind: 'merchant', href: '/merchant/cafe-roma?ref=K7Q2M9X4TB8C1ZP5&check=X9&total=121.00' });
  });

  it('a QR printed by another host still only yields our in-app path (the scanned URL is never followed)', () => {
    const out = scanOutcome('https://evil.example/#/merchant/cafe-roma?ref=K7Q2M9X4TB8C1ZP5&check=&total=5.00');
    expect(out).toEqual({ kind: 'merchant', href: '/merchant/cafe-roma?ref=K7Q2M9X4TB8C1ZP5&check=&total=5.00' });
  });

  it("a CFDI's SAT verification QR is looked up", () => {
    const out = scanOutcome(SAT_QR);
    expect(out.kind).toBe('cfdi');
    expect(out.kind === 'cfdi' && out.qr).toMatchObject({ uuid: '5FB2822E-396D-4725-8521-CDC4BDD20CCF', re: 'EKU9003173C9', rr: 'XAXX010101000', tt: '121.000000' });
  });

  it('anything else, or a tampered payload, is not recognised', () => {
    for (const text of ['hola', 'https://example.com/', 'https://x.mx/#/merchant/cafe-roma?ref=short&check=&total=1.00', 'https://x.mx/#/merchant/cafe-roma?ref=K7Q2M9X4TB8C1ZP5&check=&total=1', 'javascript:alert(1)']) {
      expect(scanOutcome(text)).toEqual({ kind: 'unknown', message: MSG.qrNotRecognized });
    }
  });
});

describe('scanReducer', () => {
  const start: ScanState = { step: 'starting' };
  it('goes from starting to scanning once the camera shows frames, keeping the camera on', () => {
    const s = scanReducer(start, { type: 'camera-ready' });
    expect(s).toEqual({ step: 'scanning' });
    expect(wantsCamera(start) && wantsCamera(s)).toBe(true);
  });

  it('a camera failure shows the Spanish message with the alternative, and turns the camera off', () => {
    const s = scanReducer(start, { type: 'camera-failed' });
    expect(s).toEqual({ step: 'camera-error', message: MSG.cameraUnavailable });
    expect(wantsCamera(s)).toBe(false);
    expect(scanReducer(s, { type: 'retry' })).toEqual({ step: 'starting' });
  });

  it('an unknown code leaves a notice and keeps scanning; a CFDI stops the camera for its card', () => {
    const scanning = scanReducer(start, { type: 'camera-ready' });
    const unknown = scanReducer(scanning, { type: 'decoded', outcome: { kind: 'unknown', message: MSG.qrNotRecognized } });
    expect(unknown).toEqual({ step: 'scanning', notice: MSG.qrNotRecognized });
    expect(wantsCamera(unknown)).toBe(true);
    const cfdi = scanOutcome(SAT_QR);
    if (cfdi.kind !== 'cfdi') throw new Error('expected a CFDI');
    const card = scanReducer(unknown, { type: 'decoded', outcome: cfdi });
    expect(card).toEqual({ step: 'cfdi', qr: cfdi.qr });
    expect(wantsCamera(card)).toBe(false);
  });

  it('ignores decodes that arrive when not scanning', () => {
    expect(scanReducer(start, { type: 'decoded', outcome: { kind: 'unknown', message: 'x' } })).toBe(start);
  });
});

describe('runScanLoop', () => {
  function fakeDecoder(results: (string | null)[]): QrDecoder & { calls: number } {
    const d = {
      engine: 'zxing' as const,
      calls: 0,
      decode: async () => results[Math.min(d.calls++, results.length - 1)] ?? null,
    };
    return d;
  }
  const frame = {} as HTMLCanvasElement;

  it('reads frames spaced by the interval until a code is accepted', async () => {
    const decoder = fakeDecoder([null, null, 'hola', 'hola', 'https://x.mx/ok']);
    const waits: number[] = [];
    const seen: string[] = [];
    await runScanLoop({
      decoder: Promise.resolve(decoder),
      frame: () => frame,
      intervalMs: FRAME_INTERVAL_MS,
      signal: new AbortController().signal,
      wait: async (ms) => void waits.push(ms),
      onText: (t) => (seen.push(t), t.endsWith('/ok')),
    });
    // The same unusable code is reported once; the loop stops on the accepted one.
    expect(seen).toEqual(['hola', 'https://x.mx/ok']);
    expect(decoder.calls).toBe(5);
    expect(waits).toHaveLength(4);
    expect(waits.every((ms) => ms > 0 && ms <= FRAME_INTERVAL_MS)).toBe(true);
  });

  it('stops when aborted and skips frames the video does not have yet', async () => {
    const decoder = fakeDecoder([null]);
    const ctrl = new AbortController();
    let frames = 0;
    await runScanLoop({
      decoder: Promise.resolve(decoder),
      frame: () => (++frames < 3 ? null : frame),
      intervalMs: 10,
      signal: ctrl.signal,
      wait: async () => {
        if (frames >= 5) ctrl.abort();
      },
      onText: () => true,
    });
    expect(frames).toBe(5);
    expect(decoder.calls).toBe(3);
  });
});
