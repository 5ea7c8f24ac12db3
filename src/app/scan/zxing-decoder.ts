// The zxing fallback, QR only: deep imports of the QR reader and its binarizer keep this lazy chunk
// small (~23 kB gzip), from the es2015 build (native classes, ~10% smaller than the ES5 one). Any
// @zxing/browser reader, even BrowserQRCodeReader, imports the library's whole index (~114 kB gzip), so
// its camera API is not used. Frames are drawn onto a canvas and turned into luminance bytes here.
import BinaryBitmap from '@zxing/library/es2015/core/BinaryBitmap';
import HybridBinarizer from '@zxing/library/es2015/core/common/HybridBinarizer';
import RGBLuminanceSource from '@zxing/library/es2015/core/RGBLuminanceSource';
import QRCodeReader from '@zxing/library/es2015/core/qrcode/QRCodeReader';
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

/** Luminance (Rec. 601 integer weights) of RGBA pixels. */
export function toLuminance(rgba: Uint8ClampedArray, pixels: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(pixels);
  for (let i = 0, j = 0; i < pixels; i++, j += 4) {
    out[i] = (rgba[j]! * 306 + rgba[j + 1]! * 601 + rgba[j + 2]! * 117) >> 10;
  }
  return out;
}

/** The QR text in a grey image, or null (NotFound / Checksum / Format: nothing readable). */
export function decodeLuminance(reader: QRCodeReader, lum: Uint8ClampedArray, w: number, h: number): string | null {
  try {
    return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(lum, w, h)))).getText();
  } catch {
    return null;
  } finally {
    reader.reset();
  }
}

export function createZxingDecoder(): QrDecoder {
  const reader = new QRCodeReader();
  const canvases = new Map<number, CanvasRenderingContext2D | null>();
  const context = (width: number) => {
    if (!canvases.has(width)) canvases.set(width, document.createElement('canvas').getContext('2d', { willReadFrequently: true }));
    return canvases.get(width) ?? null;
  };
  return {
    engine: 'zxing',
    async decode(frame) {
      const { w, h } = frameSize(frame);
      if (!w || !h) return null;
      // Frames narrower than a width are tried once at their own size.
      const widths = [...new Set(DECODE_WIDTHS.map((width) => Math.min(width, w)))];
      for (const width of widths) {
        const scale = width / w;
        const cw = Math.round(w * scale);
        const ch = Math.round(h * scale);
        const ctx = context(width);
        if (!ctx) return null;
        if (ctx.canvas.width !== cw || ctx.canvas.height !== ch) {
          ctx.canvas.width = cw;
          ctx.canvas.height = ch;
        }
        ctx.drawImage(frame, 0, 0, cw, ch);
        const text = decodeLuminance(reader, toLuminance(ctx.getImageData(0, 0, cw, ch).data, cw * ch), cw, ch);
        if (text !== null) return text;
      }
      return null;
    },
  };
}
