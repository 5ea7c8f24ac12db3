// The ALTCHA check as a checkbox-like control: it solves the server's SHA-256 proof of work in
// the browser (WebCrypto only) and hands back the payload create_user needs.
import { useEffect, useEffectEvent, useState } from 'react';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { getCaptcha } from '../api/endpoints';
import { Icon } from '../ui/icon';
import { useOnChange } from '../ui/use-on-change';
import { encodeCaptchaPayload } from './captcha-payload';

type State = 'working' | 'done' | 'error';

export function Captcha({ solved, onSolved }: { solved: boolean; onSolved: (payload: string) => void }) {
  // One solving run per attempt; a new one when the check is reset or the user taps after an error.
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<{ attempt: number; state: 'done' | 'error'; error: string | null } | null>(null);
  useOnChange(solved, (nowSolved) => {
    if (!nowSolved) setAttempt((n) => n + 1);
  });
  const current = outcome?.attempt === attempt ? outcome : null;
  // A solved check shows as done whatever the last run did.
  const state: State = solved ? 'done' : (current?.state ?? 'working');
  const error = current?.error ?? null;
  const solvedWith = useEffectEvent(onSolved);

  useEffect(() => {
    if (solved) return;
    let live = true;
    let controller: AbortController | null = null;
    void (async () => {
      try {
        const challenge = await getCaptcha();
        const { solveChallenge } = await import('altcha-lib/v1');
        if (!live) return;
        const job = solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber ?? 1_000_000);
        controller = job.controller;
        const solution = await job.promise;
        if (!live || job.controller.signal.aborted) return;
        if (!solution) throw new ApiError(MSG.captchaInvalid, 0);
        solvedWith(encodeCaptchaPayload(challenge, solution.number));
        setOutcome({ attempt, state: 'done', error: null });
      } catch (err) {
        if (live) setOutcome({ attempt, state: 'error', error: err instanceof ApiError ? err.message : MSG.captchaInvalid });
      }
    })();
    return () => {
      live = false;
      controller?.abort();
    };
  }, [solved, attempt]);

  const label = state === 'done' ? 'Verificado' : state === 'working' ? 'Verificando que eres una persona…' : 'No pudimos verificar. Toca para intentar de nuevo.';

  return (
    <div className="captcha">
      <button
        type="button"
        role="checkbox"
        aria-checked={state === 'done'}
        aria-busy={state === 'working' || undefined}
        aria-describedby={error ? 'captcha-error' : undefined}
        className={`captcha__box captcha__box--${state}`}
        onClick={() => {
          if (state === 'error') setAttempt((n) => n + 1);
        }}
      >
        <span className="captcha__mark" aria-hidden="true">
          {state === 'done' ? <Icon name="check" /> : state === 'working' ? <span className="spinner" /> : null}
        </span>
        <span aria-live="polite">{label}</span>
      </button>
      {error && (
        <p id="captcha-error" className="field__error" role="alert">
          {error}
        </p>
      )}
      <p className="captcha__note">Verificación sin imágenes: tu dispositivo resuelve un cálculo breve, sin rastrearte.</p>
    </div>
  );
}
