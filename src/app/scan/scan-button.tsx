// 'Escanear código': opens the scan dialog. The dialog (and with it the camera code) loads on the
// first click; the zxing fallback loads only when a scan starts on a browser without a native QR reader.
import { lazy, Suspense, useState } from 'react';
import { Button } from '../ui/button';
import type { ImportFilesDialog } from './cfdi-card';

const ScanDialog = lazy(() => import('./scan-dialog').then((m) => ({ default: m.ScanDialog })));

export const SCAN_BUTTON_LABEL = 'Escanear código';

export function ScanButton({ onTypeInstead, block, importDialog }: { onTypeInstead?: () => void; block?: boolean; importDialog?: ImportFilesDialog }) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <Button variant="primary" block={!!block} onClick={() => { setLoaded(true); setOpen(true); }}>
        <svg className="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM16 16h2v2h-2zM18 14h2v2h-2zM14 18h2v2h-2z" fill="currentColor" />
        </svg>
        {SCAN_BUTTON_LABEL}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <ScanDialog
            open={open}
            onClose={() => setOpen(false)}
            importDialog={importDialog}
            {...(onTypeInstead ? { onTypeInstead: () => { setOpen(false); onTypeInstead(); } } : {})}
          />
        </Suspense>
      )}
    </>
  );
}
