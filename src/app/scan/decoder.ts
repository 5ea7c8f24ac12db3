// QR decoding of camera frames: the browser's BarcodeDetector where it reads QR codes (faster, and no
// download), else @zxing/browser's QR reader loaded lazily (its own chunk, fetched only when a scan
// starts), which then also runs the camera stream in the video and its decode loop.
export interface QrDecoder {
  /** The text of a QR code in the frame, or null when none is readable. */
  decode(frame: HTMLVideoElement | HTMLCanvasElement | ImageBitmap): Promise<string | null>;
  readonly engine: 'native' | 'zxing';
  /**
   * When present, the decoder runs the scan itself: shows `stream` in `video`, reads a frame every
   * `intervalMs` until `onText` returns true or stop() is called, then ends the stream.
   */
  scan?: (stream: MediaStream, video: HTMLVideoElement, onText: (text: string) => boolean, intervalMs: number) => Promise<{ stop(): void }>;
}

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorCtor {
  new (opts: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

async function nativeDecoder(): Promise<QrDecoder | null> {
  const Ctor = (globalThis as { BarcodeDetector?: BarcodeDetectorCtor }).BarcodeDetector;
  if (!Ctor) return null;
  try {
    // Some platforms expose the class but support no formats (e.g. Chromium on Linux).
    const formats = Ctor.getSupportedFormats ? await Ctor.getSupportedFormats() : [];
    if (!formats.includes('qr_code')) return null;
    const detector = new Ctor({ formats: ['qr_code'] });
    return {
      engine: 'native',
      async decode(frame) {
        const found = await detector.detect(frame);
        return found.find((b) => b.rawValue)?.rawValue ?? null;
      },
    };
  } catch {
    return null;
  }
}

export async function zxingDecoder(): Promise<QrDecoder> {
  const { createZxingDecoder, startZxingScan } = await import('./zxing-decoder');
  return { ...createZxingDecoder(), scan: startZxingScan };
}

/** `prefer` lets the benchmark measure each engine. */
export async function createQrDecoder(prefer: 'auto' | 'zxing' = 'auto'): Promise<QrDecoder> {
  if (prefer === 'auto') {
    const native = await nativeDecoder();
    if (native) return native;
  }
  return zxingDecoder();
}
