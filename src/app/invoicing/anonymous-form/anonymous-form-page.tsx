// Anonymous ticket form (ticket/form-anonymous/{name}; the signed-out start screen for ANONYMOUS_MERCHANT):
// no account needed. Signed out it sits under the front door's intro (front-door.tsx) so a newcomer sees
// whose site this is.
// This frame is part of the app's first script, so a newcomer on a slow connection reads what Cuentas
// Claras is as soon as the app starts; the form (anonymous-form.tsx, with its fields, dialogs and the
// invoicing calls) arrives as its own chunk behind a placeholder card. If that chunk cannot be fetched,
// the card says so in its place (route-error.tsx) and offers 'Reintentar'; the intro stays.
import { CatchBoundary, useParams } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { ANONYMOUS_MERCHANT, merchantByShortName } from '../../../domain/merchants';
import { hasSession } from '../../../offline/session';
import { ScreenProblem } from '../../route-error';
import { SkeletonCard } from '../../ui/skeleton';
import { UnknownMerchant } from '../form-parts/unknown-merchant';
import { FrontDoorIntro } from './front-door';
import { PublicShell } from './public-shell';

const AnonymousForm = lazy(() => import('./anonymous-form').then((m) => ({ default: m.AnonymousForm })));

export function AnonymousFormPage() {
  const { name } = useParams({ strict: false }) as { name?: string };
  const merchant = merchantByShortName(name ?? ANONYMOUS_MERCHANT);
  const signedIn = hasSession();
  if (!merchant?.anonymous) {
    return (
      <PublicShell signedIn={signedIn}>
        <UnknownMerchant home="/login" />
      </PublicShell>
    );
  }
  return (
    <PublicShell signedIn={signedIn}>
      <main id="main" className={signedIn ? 'page front-door front-door--signed-in' : 'page front-door'}>
        {!signedIn && <FrontDoorIntro />}
        <CatchBoundary getResetKey={() => merchant.short_name} errorComponent={ScreenProblem}>
          <Suspense fallback={<SkeletonCard lines={7} label="Cargando el formulario" />}>
            <AnonymousForm key={merchant.short_name} merchant={merchant} frontDoor={!signedIn} />
          </Suspense>
        </CatchBoundary>
      </main>
    </PublicShell>
  );
}
