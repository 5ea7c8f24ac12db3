// QR decode benchmark: decode time of a 720p camera frame in Chromium (goal < 100 ms), with the app's
// own decoders: the native BarcodeDetector where Chromium has one for QR codes, and the zxing QR-only
// fallback. The frame is a merchant ticket QR link, centred on 1280×720 like a phone held over a ticket.
// Run alone: npx tsx tests/bench/qr-decode.ts (one figure per line); tests/bench/run.ts calls qrDecodeSection.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import QRCode from 'qrcode';
import { merchantTicketQrUrl } from '../../src/domain/qr-payload';
import type { QrBenchResult } from './qr-decode-page';
import { chromiumExecutable } from '../tools/system-tools';
import { sized } from './scale';

export const FRAME_W = 1280;
export const FRAME_H = 720;

/**
 * Grey 1280×720 frame (one byte per pixel) with `text`'s QR centred: a light-grey "paper" background
 * with a little deterministic noise, the code in dark grey at `moduleSize` pixels per module with its
 * white quiet zone of 4 modules.
 */
export function qrFrameLuma(text: string, moduleSize = 8, w = FRAME_W, h = FRAME_H): Uint8Array {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const luma = new Uint8Array(w * h);
  let seed = 12345;
  for (let i = 0; i < luma.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    luma[i] = 190 + (seed % 20);
  }
  const side = (n + 8) * moduleSize;
  const x0 = Math.floor((w - side) / 2);
  const y0 = Math.floor((h - side) / 2);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const mx = Math.floor(x / moduleSize) - 4;
      const my = Math.floor(y / moduleSize) - 4;
      const dark = mx >= 0 && my >= 0 && mx < n && my < n && qr.modules.get(my, mx) === 1;
      luma[(y0 + y) * w + x0 + x] = dark ? 30 : 245;
    }
  }
  return luma;
}

/** A YUV4MPEG2 (4:2:0) video of `frames` identical frames, for Chromium's --use-file-for-fake-video-capture. */
export function y4mVideo(luma: Uint8Array, frames = 3, w = FRAME_W, h = FRAME_H): Buffer {
  const header = Buffer.from(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\n`, 'latin1');
  const chroma = Buffer.alloc((w / 2) * (h / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n', 'latin1'), Buffer.from(luma), chroma]);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}

export interface QrBenchDeps {
  chromePath: string;
  report: (key: string, value: string | number) => void;
  fail: (section: string, error: unknown) => void;
  median: (values: number[]) => number;
}

const RUNS = sized(30, 2);
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'];

export async function qrDecodeSection(deps: QrBenchDeps): Promise<void> {
  try {
    const code = (await build({
      entryPoints: [join(import.meta.dirname, 'qr-decode-page.ts')],
      bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, logLevel: 'warning',
    })).outputFiles[0]!.text;
    const text = merchantTicketQrUrl('https://cuentas.example.mx', { short_name: 'movil-norte', ref: 'K7Q2M9X4TB8C1ZP5', check: 'X9Y8', total: '1234.50' });
    const luma = Buffer.from(qrFrameLuma(text)).toString('base64');
    // The same frame with the code covered by paper: nothing to find.
    const empty = Buffer.from(qrFrameLuma(text).map((v) => (v < 128 ? 245 : v))).toString('base64');
    const browser = await chromium.launch({ executablePath: deps.chromePath, args: ARGS, headless: true });
    try {
      const page = await browser.newPage();
      await page.setContent('<!doctype html><title>qr</title>');
      await page.addScriptTag({ content: code });
      const r = await page.evaluate(
        ([b64, e64, w, h, runs]) =>
          (globalThis as unknown as { ccQrBench: (a: string, e: string, b: number, c: number, d: number) => Promise<QrBenchResult> }).ccQrBench(b64, e64, w, h, runs),
        [luma, empty, FRAME_W, FRAME_H, RUNS] as const,
      );
      for (const t of [r.native, r.zxing]) {
        if (!t) continue;
        if (t.text !== text) throw new Error(`${t.engine} decoded ${JSON.stringify(t.text)}, expected the ticket link`);
        deps.report(`qr-decode-720p-${t.engine}-median-ms`, Math.round(deps.median(t.ms) * 10) / 10);
        deps.report(`qr-decode-720p-${t.engine}-max-ms`, Math.round(Math.max(...t.ms) * 10) / 10);
      }
      deps.report('qr-decode-720p-zxing-no-code-median-ms', Math.round(deps.median(r.zxingEmpty.ms) * 10) / 10);
      if (r.zxingEmpty.text !== null) throw new Error('zxing read a code in a frame without one');
      deps.report('qr-decode-barcode-detector', r.native ? 'available' : 'not available in this Chromium');
    } finally {
      await browser.close().catch(() => undefined);
    }
  } catch (error) {
    deps.fail('qr-decode', error);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const median = (v: number[]) => {
    const s = [...v].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  await qrDecodeSection({
    chromePath: await chromiumExecutable(),
    report: (k, v) => console.log(`${k}: ${v}`),
    fail: (s, e) => {
      console.error(`${s}-error: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    },
    median,
  });
}
