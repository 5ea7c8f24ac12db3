// The ALTCHA check as a checkbox-like control: it solves the server's SHA-256 proof of work in
// the browser (WebCrypto only) and hands back the payload create_user needs.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { getCaptcha } from '../api/endpoints';
import { Icon } from '../ui/icon';
import { encodeCaptchaPayload } from './captcha-payload';

type State = 'working' | 'done' | 'error';

export function Captcha({ solved, onSolved }: { solved: boolean; onSolved: (payload: string) => void }) {
  const [state, setState] = useState<State>(solved ? 'done' : 'working');
  const [error, setError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const onSolvedRef = useRef(onSolved);
  onSolvedRef.current = onSolved;

  const start = useCallback(async () => {
    abortRef.current?.abort();
    setState('working');
    setError(null);
    try {
      const challenge = await getCaptcha();
      const { solveChallenge } = await import('altcha-lib/v1');
      const job = solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber ?? 1_000_000);
      abortRef.current = job.controller;
      const solution = await job.promise;
      if (job.controller.signal.aborted) return;
      if (!solution) throw new ApiError(MSG.captchaInvalid, 0);
      onSolvedRef.current(encodeCaptchaPayload(challenge, solution.number));
      setState('done');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MSG.captchaInvalid);
      setState('error');
    }
  }, []);

  useEffect(() => {
    if (solved) {
      setState('done');
      return;
    }
    void start();
    return () => abortRef.current?.abort();
  }, [solved, start]);

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
          if (state === 'error') void start();
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
