// 'Cancelar plan' on the profile: a confirmation that says what happens (the plan runs to the end of the
// paid period, then the account is on Gratuito, no more charges), then 'Tu plan termina el …' with a way
// to change one's mind while the period lasts.
import { useEffect, useRef, useState } from 'react';
import type { Account } from '../../domain/account';
import type { Plan } from '../../domain/plans';
import { db } from '../../offline/db';
import { errorMessage, setQueryData, useApiQuery } from '../api/query';
import { syncAccounts } from '../layout/account-sync';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { toast } from '../ui/toast-store';
import { useOnline } from '../use-online';
import type { SubscriptionState } from '../../domain/plans';
import { cancelPlan, getSubscription, resumePlan, subscriptionKey } from './plans-api';
import { dueDate } from './pricing-model';

/** The account's paid subscription, from the server (only plans bought on the web have one). */
export function useSubscriptionState(account: Account, plan: Plan | undefined) {
  const online = useOnline();
  const id = account.diverza_client_id;
  const paid = !!plan && plan.price > 0 && plan.purchasable;
  return useApiQuery(subscriptionKey(id), ({ signal }) => getSubscription(id, signal), { enabled: online && paid }).data;
}

/** 'Tu plan termina el 26/diciembre/2026.' */
export const endsOn = (iso: string) => `Tu plan termina el ${dueDate(iso)}.`;

function CancelledNotice({ state, onResume, busy, focus }: { state: SubscriptionState; onResume: () => void; busy: boolean; focus: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  // Just cancelled: the button that opened the dialog is gone, so focus lands on what happened instead.
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div className="notice notice--info plan-cancel" role="status" tabIndex={-1} ref={ref}>
      <p>
        <strong>{endsOn(state.current_period_end ?? '')}</strong> Hasta entonces conservas todo lo que incluye; después tu cuenta pasará al plan
        Gratuito y no se te cobrará de nuevo.
      </p>
      <div>
        <Button onClick={onResume} loading={busy}>
          Seguir con mi plan
        </Button>
      </div>
    </div>
  );
}

export function PlanCancellation({ account, plan, state }: { account: Account; plan: Plan; state: SubscriptionState | undefined }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [justCancelled, setJustCancelled] = useState(false);
  const id = account.diverza_client_id;
  if (!state || (state.status !== 'active' && state.status !== 'past_due' && state.status !== 'canceling')) return null;

  async function change(call: (clientId: number) => Promise<SubscriptionState>, done: (s: SubscriptionState) => string | null) {
    setBusy(true);
    setProblem(null);
    try {
      const next = await call(id);
      setQueryData(subscriptionKey(id), next);
      setAsking(false);
      setJustCancelled(next.status === 'canceling');
      const said = done(next);
      if (said) toast.success(said);
      // A plan that ended at once (its renewal had already failed) changes the account.
      if (next.plan_id !== account.plan_id) await syncAccounts(db).catch(() => undefined);
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  // A cancelled plan says so where it was ('Tu plan termina el …'); one that ended at once has no such place.
  const cancel = () => change(cancelPlan, (s) => (s.status === 'canceling' ? null : 'Cancelaste tu plan. Tu cuenta está en el plan Gratuito.'));
  const resume = () => change(resumePlan, (s) => `Listo, tu plan seguirá activo y se renovará el ${dueDate(s.current_period_end ?? '')}.`);

  if (state.status === 'canceling') {
    return (
      <>
        <CancelledNotice state={state} onResume={() => void resume()} busy={busy} focus={justCancelled} />
        {problem && (
          <p className="notice notice--error" role="alert">
            {problem}
          </p>
        )}
      </>
    );
  }
  const until = state.status === 'active' && state.current_period_end ? dueDate(state.current_period_end) : null;
  return (
    <>
      <Button variant="ghost" onClick={() => setAsking(true)}>
        Cancelar plan
      </Button>
      <ConfirmDialog
        open={asking}
        title="¿Cancelar tu plan?"
        confirmLabel="Sí, cancelar plan"
        cancelLabel="Conservar mi plan"
        danger
        busy={busy}
        onConfirm={() => void cancel()}
        onCancel={() => {
          setAsking(false);
          setProblem(null);
        }}
      >
        <div className="stack">
          {until ? (
            <p>
              Conservarás <strong>{plan.name}</strong> hasta el <span className="tabular">{until}</span>. Después tu cuenta pasará al plan Gratuito y no se te
              volverá a cobrar.
            </p>
          ) : (
            <p>No pudimos cobrar tu última renovación: al cancelar, tu cuenta pasa hoy al plan Gratuito y no lo intentaremos de nuevo.</p>
          )}
          <p className="muted">Puedes volver a contratar un plan cuando quieras desde Planes.</p>
          {problem && (
            <p className="notice notice--error" role="alert">
              {problem}
            </p>
          )}
        </div>
      </ConfirmDialog>
    </>
  );
}
