// Page side of the QR decode benchmark (bundled by tests/bench/qr-decode.ts with esbuild): the app's own
// decoders (src/app/scan) timed on a 1280×720 grey frame drawn on a canvas, as a camera frame would be.
import { createQrDecoder, type QrDecoder } from '../../src/app/scan/decoder';
import { createZxingDecoder } from '../../src/app/scan/zxing-decoder';

export interface DecodeTiming {
  engine: string;
  text: string | null;
  ms: number[];
}

function canvasFrom(lumaB64: string, w: number, h: number): HTMLCanvasElement {
  const luma = Uint8Array.from(atob(lumaB64), (c) => c.charCodeAt(0));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const img = new ImageData(w, h);
  for (let i = 0; i < w * h; i++) {
    const v = luma[i]!;
    img.data[i * 4] = v;
    img.data[i * 4 + 1] = v;
    img.data[i * 4 + 2] = v;
    img.data[i * 4 + 3] = 255;
  }
  canvas.getContext('2d')!.putImageData(img, 0, 0);
  return canvas;
}

async function time(decoder: QrDecoder, frame: HTMLCanvasElement, runs: number): Promise<DecodeTiming> {
  const ms: number[] = [];
  let text: string | null = null;
  await decoder.decode(frame); // warm-up (JIT)
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    text = await decoder.decode(frame);
    ms.push(performance.now() - t0);
  }
  return { engine: decoder.engine, text, ms };
}

export interface QrBenchResult {
  native: DecodeTiming | null;
  zxing: DecodeTiming;
  /** A frame with no code: what every frame costs while the user aims (all scales tried). */
  zxingEmpty: DecodeTiming;
}

async function run(lumaB64: string, emptyB64: string, w: number, h: number, runs: number): Promise<QrBenchResult> {
  const frame = canvasFrom(lumaB64, w, h);
  const auto = await createQrDecoder('auto');
  const native = auto.engine === 'native' ? await time(auto, frame, runs) : null;
  const zxing = await time(createZxingDecoder(), frame, runs);
  const zxingEmpty = await time(createZxingDecoder(), canvasFrom(emptyB64, w, h), runs);
  return { native, zxing, zxingEmpty };
}

(globalThis as { ccQrBench?: typeof run }).ccQrBench = run;
