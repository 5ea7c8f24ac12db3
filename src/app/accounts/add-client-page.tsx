// Add a tax id (spec §2 Add client): the registration tax-data pane with 'Guardar'.
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { db } from '../../offline/db';
import { putAccount } from '../../offline/local-data';
import { ApiError } from '../../offline/http';
import { newClient } from '../api/endpoints';
import { useLayout } from '../layout/layout-context';
import { checkTaxDraft, EMPTY_TAX_DRAFT, toNewClientBody, type TaxDraft, type TaxField } from '../tax-data/tax-draft';
import { TaxDataPane, type TaxFieldRefs } from '../tax-data/tax-data-pane';
import { Button } from '../ui/button';
import { toast } from '../ui/toast-store';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';
import { takePendingClient } from '../tax-data/pending-client';

export function AddClientPage() {
  const navigate = useNavigate();
  const online = useOnline();
  const { selectAccount, accounts } = useLayout();
  // Sign-up may hand over what it could not save (the user is signed in; nothing is lost).
  const [pending] = useState(takePendingClient);
  const [draft, setDraftState] = useState<TaxDraft>(pending?.draft ?? EMPTY_TAX_DRAFT);
  const [error, setError] = useState<{ field: TaxField; message: string } | null>(null);
  const [serverError, setServerError] = useState<string | null>(pending?.error ?? null);
  const [busy, setBusy] = useState(false);
  const setDraft = (d: TaxDraft) => {
    setDraftState(d);
    setError(null); // the message pointed at what was there before the edit
  };
  const refs = useRef<TaxFieldRefs>({});
  const notes = useScreenToasts();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = checkTaxDraft(draft);
    if (problem) {
      setError(problem);
      notes.error(problem.message);
      refs.current[problem.field]?.focus();
      return;
    }
    setError(null);
    setServerError(null);
    notes.dismissAll();
    setBusy(true);
    try {
      const account = await newClient(toNewClientBody(draft));
      await putAccount(db, account);
      selectAccount(account.diverza_client_id);
      toast.success(MSG.infoUpdated);
      await navigate({ to: '/' });
    } catch (err) {
      const message = err instanceof ApiError ? err.message : MSG.generic;
      setServerError(message);
      notes.error(message);
      setBusy(false);
    }
  }

  const first = accounts !== undefined && accounts.length === 0;

  return (
    <main id="main" className="page page--form">
      <div className="page__title">
        <h1>Añadir RFC</h1>
      </div>
      <form className="card stack" onSubmit={onSubmit} noValidate>
        <p className="muted" style={{ margin: 0 }}>
          {first ? 'Registra tu RFC para empezar a pedir tus facturas.' : 'Agrega otra razón social o RFC para pedir facturas a su nombre.'}
        </p>
        {serverError && (
          <div className="notice notice--error" role="alert">
            <p>{serverError}</p>
          </div>
        )}
        {!online && (
          <div className="notice notice--warning" role="status">
            <p>Sin conexión — conéctate a internet para guardar tu RFC. Lo que escribiste sigue aquí.</p>
          </div>
        )}
        <TaxDataPane value={draft} onChange={setDraft} error={error} fieldRefs={refs} />
        <div className="form-actions">
          <Button type="submit" variant="primary" loading={busy}>
            Guardar
          </Button>
        </div>
      </form>
    </main>
  );
}
