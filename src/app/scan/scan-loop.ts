// Reads frames at most every `intervalMs` until a code is accepted or the signal aborts. The decoder is
// created (and, for zxing, downloaded) while the camera starts.
import type { QrDecoder } from './decoder';

type Frame = HTMLVideoElement | HTMLCanvasElement | ImageBitmap;

export interface ScanLoopOptions {
  decoder: Promise<QrDecoder>;
  /** The current frame, or null while the video has none yet. */
  frame: () => Frame | null;
  /** Returns true when the text was used and scanning should stop. */
  onText: (text: string) => boolean;
  intervalMs: number;
  signal: AbortSignal;
  /** Injected in tests. */
  wait?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runScanLoop(o: ScanLoopOptions): Promise<void> {
  const wait = o.wait ?? sleep;
  const decoder = await o.decoder;
  let last = '';
  while (!o.signal.aborted) {
    const started = Date.now();
    const frame = o.frame();
    const text = frame ? await decoder.decode(frame).catch(() => null) : null;
    if (o.signal.aborted) return;
    // The same unusable code seen again is not reported again (the notice is already on screen).
    if (text && text !== last) {
      last = text;
      if (o.onText(text)) return;
    }
    await wait(Math.max(0, o.intervalMs - (Date.now() - started)));
  }
}
