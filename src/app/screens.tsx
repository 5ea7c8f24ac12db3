// Screens that show one feature inside another. Features do not import each other (DESIGN §1): the composition
// root hands each screen the pieces it shows, and every piece stays its own lazy chunk, loaded as before.
import { lazyRouteComponent } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';

const loadSpendingPanel = () => import('./spending/spending-panel');
const loadImportDialog = () => import('./imports/import-dialog');
const SpendingPanel = lazy(() => loadSpendingPanel().then((m) => ({ default: m.SpendingPanel })));
const ImportDialog = lazy(() => loadImportDialog().then((m) => ({ default: m.ImportDialog })));
// 'Escanear código' (the scan feature) sits at the top of ticket/new; its code loads with that page only.
const ScanButton = lazy(() => import('./scan/scan-button').then((m) => ({ default: m.ScanButton })));

// The panel and the import are not needed to paint the month: the dashboard loads them after the first screen.
function preloadDashboardPieces(): void {
  void loadSpendingPanel();
  void loadImportDialog();
}

/** The dashboard, with 'Agregar gasto / ingreso' (spending) and 'Importar CFDIs' (imports). */
export const HomeScreen = lazyRouteComponent(() =>
  import('./home/home-page').then(({ HomePage }) => ({
    default: () => <HomePage SpendingPanel={SpendingPanel} ImportDialog={ImportDialog} preload={preloadDashboardPieces} />,
  })),
);

/** 'Facturar ticket' (invoicing) with 'Escanear código' on top; a scanned CFDI can be imported (imports). */
export const NewPickerScreen = lazyRouteComponent(() =>
  import('./invoicing/pickers/picker-page').then(({ PickerPage }) => ({
    default: () => (
      <PickerPage
        picker="new"
        top={
          <Suspense fallback={null}>
            <div className="picker-scan">
              <ScanButton block importDialog={ImportDialog} />
            </div>
          </Suspense>
        }
      />
    ),
  })),
);

/** 'Perfil' (plans) with the connected apps the user can revoke (oauth). */
export const SubscriptionScreen = lazyRouteComponent(() =>
  Promise.all([import('./plans/subscription-page'), import('./oauth/connected-apps')]).then(([{ SubscriptionPage }, { ConnectedApps }]) => ({
    default: () => <SubscriptionPage connectedApps={<ConnectedApps />} />,
  })),
);
