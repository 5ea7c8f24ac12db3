// The zxing fallback (browsers without a native QR reader), through @zxing/browser: its QR reader opens
// nothing itself here — the dialog hands it the camera stream — then attaches the stream to the video,
// runs the decode loop and, on stop, ends the stream and clears the video. Deep imports (and the
// '@zxing/library' alias to ./zxing-library-qr.ts in vite.config.ts) keep this lazy chunk QR-only.
import { BrowserQRCodeReader } from '@zxing/browser/es2015/readers/BrowserQRCodeReader';
import type { IScannerControls } from '@zxing/browser/es2015/common/IScannerControls';
import NotFoundException from '@zxing/library/es2015/core/NotFoundException';
import type { QrDecoder } from './decoder';

/**
 * Widths a frame is tried at, largest first. zxing's finder-pattern search often mistakes data modules
 * for a finder pattern when modules are large (≥ 4 px), and reads reliably at 2–3 px per module: a
 * smaller copy of the same frame rescues codes held close to the camera, and costs little.
 */
export const DECODE_WIDTHS = [960, 480, 320, 240] as const;

type Frame = HTMLVideoElement | HTMLCanvasElement | ImageBitmap;

function frameSize(frame: Frame): { w: number; h: number } {
  if ('videoWidth' in frame) return { w: frame.videoWidth, h: frame.videoHeight };
  return { w: frame.width, h: frame.height };
}

/** @zxing/browser's QR reader, trying each frame at the widths above (one canvas per width, reused). */
class QrReader extends BrowserQRCodeReader {
  private readonly canvases = new Map<number, CanvasRenderingContext2D | null>();

  private context(width: number): CanvasRenderingContext2D | null {
    if (!this.canvases.has(width)) this.canvases.set(width, document.createElement('canvas').getContext('2d', { willReadFrequently: true }));
    return this.canvases.get(width) ?? null;
  }

  /** The frame drawn at `width` (height kept in proportion). */
  draw(frame: Frame, width: number): HTMLCanvasElement | null {
    const { w, h } = frameSize(frame);
    const ctx = this.context(width);
    if (!ctx || !w || !h) return null;
    const cw = Math.round(width);
    const ch = Math.round((h * width) / w);
    if (ctx.canvas.width !== cw || ctx.canvas.height !== ch) {
      ctx.canvas.width = cw;
      ctx.canvas.height = ch;
    }
    ctx.drawImage(frame, 0, 0, cw, ch);
    return ctx.canvas;
  }

  /**
   * Called by the decode loop with the whole frame. Whatever a width fails with, the loop is told
   * NotFound: it ends the scan on any other error, and a misread finder pattern in one frame can make
   * zxing throw others — the next frame may read.
   */
  override decodeFromCanvas(canvas: HTMLCanvasElement): ReturnType<BrowserQRCodeReader['decodeFromCanvas']> {
    const widths = [...new Set(DECODE_WIDTHS.map((width) => Math.min(width, canvas.width)))];
    for (const width of widths) {
      const scaled = width === canvas.width ? canvas : this.draw(canvas, width);
      if (!scaled) break;
      try {
        return super.decodeFromCanvas(scaled);
      } catch {
        // next width
      }
    }
    throw new NotFoundException();
  }
}

export interface ZxingScan {
  stop(): void;
}

/**
 * Scans `stream` in `video` until `onText` says the text was used (true) or stop() is called; either
 * way the stream's tracks end. Frames are read every `intervalMs`.
 */
export async function startZxingScan(stream: MediaStream, video: HTMLVideoElement, onText: (text: string) => boolean, intervalMs: number): Promise<ZxingScan> {
  const reader = new QrReader(undefined, { delayBetweenScanAttempts: intervalMs, delayBetweenScanSuccess: intervalMs });
  let last = '';
  let stopped = false;
  const controls: IScannerControls = await reader.decodeFromStream(stream, video, (result, _error, loop) => {
    const text = result?.getText();
    // The same unusable code seen again is not reported again (the notice is already on screen).
    if (stopped || !text || text === last) return;
    last = text;
    if (onText(text)) {
      stopped = true;
      loop.stop();
    }
  });
  return {
    stop() {
      stopped = true;
      controls.stop();
    },
  };
}

/** One frame at a time (the benchmark, and the decoder interface the native reader shares). */
export function createZxingDecoder(): QrDecoder {
  const reader = new QrReader();
  return {
    engine: 'zxing',
    async decode(frame) {
      const { w } = frameSize(frame);
      if (!w) return null;
      const canvas = reader.draw(frame, w);
      if (!canvas) return null;
      try {
        return reader.decodeFromCanvas(canvas).getText();
      } catch {
        return null;
      }
    },
  };
}
