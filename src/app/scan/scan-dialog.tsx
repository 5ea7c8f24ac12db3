// The scan dialog: live camera in a viewfinder, reading QR codes ~10 times a second (the browser's
// BarcodeDetector in our loop, else @zxing/browser's reader, which runs the stream and its own loop). A merchant ticket
// opens its invoice form prefilled; a CFDI's SAT QR shows the invoice card; the camera stops on close,
// unmount (navigation) and as soon as a code is used.
import { useEffect, useEffectEvent, useReducer, useRef } from 'react';
import { useRouter } from '@tanstack/react-router';
import { Modal } from '../ui/overlay';
import { Button } from '../ui/button';
import { CfdiCard, type ImportFilesDialog } from './cfdi-card';
import { openCamera, stopStream } from './camera';
import { createQrDecoder, type QrDecoder } from './decoder';
import { runScanLoop } from './scan-loop';
import { FRAME_INTERVAL_MS, scanOutcome, scanReducer, wantsCamera, type ScanState } from './scan-model';
import './scan.css';

export const SCAN_TXT = {
  title: 'Escanear código',
  hint: 'Apunta la cámara al código QR de tu ticket o de tu factura.',
  starting: 'Encendiendo la cámara…',
  scanning: 'Buscando un código QR…',
  cancel: 'Cancelar',
  retry: 'Intentar de nuevo',
  typeInstead: 'Escribir los datos',
  viewfinder: 'Vista de la cámara',
} as const;

export interface ScanDialogProps {
  open: boolean;
  onClose: () => void;
  /** Where 'Escribir los datos' leads (the screen that has the forms); omitted: the button only closes. */
  onTypeInstead?: () => void;
  /** Injected in tests and the benchmark. */
  camera?: () => Promise<MediaStream>;
  decoder?: () => Promise<QrDecoder>;
  /** Offered on a scanned CFDI we do not have ('Importar CFDIs'). */
  importDialog?: ImportFilesDialog | undefined;
}

export function ScanDialog({ open, onClose, onTypeInstead, camera = openCamera, decoder = createQrDecoder, importDialog }: ScanDialogProps) {
  const [state, dispatch] = useReducer(scanReducer, { step: 'starting' } as ScanState);
  const videoRef = useRef<HTMLVideoElement>(null);
  const router = useRouter();
  const cameraOn = open && wantsCamera(state);
  const close = useEffectEvent(onClose);

  // Reopening starts afresh.
  useEffect(() => {
    if (open) dispatch({ type: 'retry' });
  }, [open]);

  useEffect(() => {
    if (!cameraOn) return;
    const ctrl = new AbortController();
    let stream: MediaStream | null = null;
    let shown: HTMLVideoElement | null = null;
    const decoding = decoder();
    decoding.catch(() => undefined);
    const onText = (text: string): boolean => {
      const outcome = scanOutcome(text);
      if (outcome.kind === 'merchant') {
        ctrl.abort();
        stopStream(stream);
        close();
        void router.navigate({ href: outcome.href });
        return true;
      }
      dispatch({ type: 'decoded', outcome });
      return outcome.kind === 'cfdi';
    };
    camera()
      .then(async (s) => {
        stream = s;
        if (ctrl.signal.aborted) return stopStream(s);
        const video = videoRef.current;
        if (!video) return stopStream(s);
        shown = video;
        const reader = await decoding;
        if (ctrl.signal.aborted) return stopStream(s);
        if (reader.scan) {
          // @zxing/browser shows the stream, runs the decode loop and ends the stream when stopped. Its
          // first frame is read before it returns: scanning already, or that code would be dropped.
          dispatch({ type: 'camera-ready' });
          const scan = await reader.scan(s, video, onText, FRAME_INTERVAL_MS);
          if (ctrl.signal.aborted) return scan.stop();
          ctrl.signal.addEventListener('abort', () => scan.stop(), { once: true });
          return;
        }
        video.srcObject = s;
        await video.play().catch(() => undefined);
        if (ctrl.signal.aborted) return;
        dispatch({ type: 'camera-ready' });
        await runScanLoop({
          decoder: Promise.resolve(reader),
          intervalMs: FRAME_INTERVAL_MS,
          signal: ctrl.signal,
          frame: () => (video.readyState >= 2 ? video : null),
          onText,
        });
      })
      .catch(() => {
        if (!ctrl.signal.aborted) dispatch({ type: 'camera-failed' });
      });
    return () => {
      ctrl.abort();
      stopStream(stream);
      if (shown) shown.srcObject = null;
    };
  }, [cameraOn, camera, decoder, router]);

  return (
    <Modal open={open} onClose={onClose} title={SCAN_TXT.title} footer={
      <ScanFooter state={state} onCancel={onClose} onRetry={() => dispatch({ type: 'retry' })} onTypeInstead={onTypeInstead} />
    }>
      <ScanBody state={state} videoRef={videoRef} onDone={onClose} importDialog={importDialog} />
    </Modal>
  );
}

/** The dialog's content for a state (exported for static rendering in tests). */
export function ScanBody({ state, videoRef, onDone, importDialog }: {
  state: ScanState;
  videoRef?: React.RefObject<HTMLVideoElement | null>;
  onDone: () => void;
  importDialog?: ImportFilesDialog | undefined;
}) {
  if (state.step === 'cfdi') return <CfdiCard qr={state.qr} onDone={onDone} importDialog={importDialog} />;
  if (state.step === 'camera-error') {
    return <p className="scan-error" role="alert">{state.message}</p>;
  }
  return (
    <div className="scan">
      <p className="scan-hint">{SCAN_TXT.hint}</p>
      <div className="scan-viewfinder">
        <video ref={videoRef} className="scan-video" muted playsInline aria-label={SCAN_TXT.viewfinder} />
        <span className="scan-frame" aria-hidden="true" />
      </div>
      <p className={state.step === 'scanning' && state.notice ? 'scan-error' : 'scan-status'} role="status" aria-live="polite">
        {state.step === 'starting' ? SCAN_TXT.starting : state.notice ?? SCAN_TXT.scanning}
      </p>
    </div>
  );
}

export function ScanFooter({ state, onCancel, onRetry, onTypeInstead }: {
  state: ScanState;
  onCancel: () => void;
  onRetry: () => void;
  onTypeInstead?: (() => void) | undefined;
}) {
  return (
    <div className="scan-actions">
      {state.step === 'camera-error' && onTypeInstead && <Button variant="primary" onClick={onTypeInstead}>{SCAN_TXT.typeInstead}</Button>}
      {(state.step === 'camera-error' || state.step === 'cfdi') && <Button onClick={onRetry}>{SCAN_TXT.retry}</Button>}
      <Button variant="ghost" onClick={onCancel}>{SCAN_TXT.cancel}</Button>
    </div>
  );
}
