// What a screen shows when it cannot render: its code did not arrive (a lazy chunk failed on a bad
// connection, or a new version replaced the files) or it broke. Without this the router showed its own
// English box. The router puts it in place of a broken route; a screen may put ScreenProblem in place
// of one lazy part, keeping the rest (the front door keeps its intro when the form does not arrive).
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useRouter } from '@tanstack/react-router';
import { MSG } from '../domain/messages';
import { TXT } from './strings';
import { Button } from './ui/button';
import { useOnline } from './use-online';

/** A dynamic import that failed, in the words of Chromium, Firefox and Safari. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed)/.test(message);
}

/** `h1` where it is the whole screen, `h2` (the default) under a screen's own title. */
export function ScreenProblem({ error, reset, h1 = false }: Pick<ErrorComponentProps, 'error' | 'reset'> & { h1?: boolean }) {
  const router = useRouter();
  const chunk = isChunkLoadError(error);
  // Online, the files may simply be gone: a deploy replaced them (the router's own reload did not help).
  const online = useOnline();
  const Heading = h1 ? 'h1' : 'h2';
  return (
    <div className="card stack stack--start" role="alert">
      <Heading>{chunk ? TXT.screenNotLoaded : MSG.generic}</Heading>
      {chunk && <p className="muted">{online ? TXT.screenNotLoadedOnline : TXT.offline}</p>}
      <Button
        variant="primary"
        onClick={() => {
          // A module whose import failed stays failed for the page's life (the browser and React.lazy
          // both remember it): only a reload fetches it again. Anything else may render on a second try.
          if (chunk) window.location.reload();
          else {
            reset();
            void router.invalidate();
          }
        }}
      >
        {TXT.retry}
      </Button>
    </div>
  );
}

export function RouteError({ error, reset }: ErrorComponentProps) {
  return (
    <main className="page page--narrow" id="main">
      <ScreenProblem error={error} reset={reset} h1 />
    </main>
  );
}
