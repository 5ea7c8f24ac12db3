// Edit billing data (spec §2): RFC and Nombre (companies) or Nombre(s)/Apellido(s) (individuals), plus the
// postal code and regime CFDI 4.0 asks of a receiver. The código postal is required here: saving it empty
// would only move the refusal to the first invoice. 'Cancelar' returns to the subscription profile (spec §2).
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { accountType, type Account } from '../../domain/account';
import { MSG } from '../../domain/messages';
import { NAME_MAX, checkTaxDataUpdate } from '../../domain/registration';
import { normalizeRfc, RFC_COMPANY_LENGTH, RFC_PERSON_LENGTH, type PersonType } from '../../domain/rfc';
import { db } from '../../offline/db';
import { putAccount } from '../../offline/local-data';
import { ApiError } from '../../offline/http';
import { updateClient, type UpdateClientInput } from '../api/endpoints';
import { useLayout } from '../layout/layout-context';
import { ForSelectedAccount } from '../layout/for-selected-account';
import { CfdiTaxFields } from '../tax-data/cfdi-tax-fields';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import { toast } from '../ui/toast-store';
import { useFieldProblem } from '../ui/use-field-problem';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';

type Field = 'rfc' | 'name' | 'firstName' | 'lastName' | 'postalCode' | 'taxRegime';

interface Draft {
  rfc: string;
  name: string;
  firstName: string;
  lastName: string;
  postalCode: string;
  taxRegime: string;
}

const draftOf = (a: Account): Draft => ({
  rfc: a.rfc,
  name: a.name ?? '',
  firstName: a.first_name ?? '',
  lastName: a.last_name ?? '',
  postalCode: a.address[0]?.zip_code ?? '',
  taxRegime: a.regimen_fiscal ?? '',
});

/** The first problem of the edit (registration.ts's update rules) and the field to point at. */
function problemOf(account: Account, type: PersonType, d: Draft): { field: Field; message: string } | null {
  const foreign = type === 'extranjero';
  const message = checkTaxDataUpdate({
    type, rfc: d.rfc, name: d.name, firstName: d.firstName, lastName: d.lastName,
    country: account.residencia_fiscal ?? '', taxId: account.num_reg_id_trib ?? '',
    ...(foreign ? {} : { postalCode: d.postalCode, taxRegime: d.taxRegime }),
  });
  // A foreign account's country is not edited here: a stored one the list lacks is not the user's to fix.
  if (!message || message === MSG.countryInvalid) return null;
  const field: Field =
    message === MSG.rfcInvalid ? 'rfc'
    : message === MSG.postalCodeInvalid ? 'postalCode'
    : message === MSG.regimeInvalid ? 'taxRegime'
    : type === 'persona' ? (d.firstName.trim() ? 'lastName' : 'firstName') : 'name';
  return { field, message };
}

function updateBody(account: Account, type: PersonType, d: Draft): UpdateClientInput {
  const cfdi = type === 'extranjero' ? {} : { zip_code: d.postalCode.trim(), regimen_fiscal: d.taxRegime };
  const base = { diverza_client_id: account.diverza_client_id, rfc: normalizeRfc(d.rfc), ...cfdi };
  return type === 'persona' ? { ...base, first_name: d.firstName.trim(), last_name: d.lastName.trim() } : { ...base, name: d.name.trim() };
}

function EditForm({ account }: { account: Account }) {
  const navigate = useNavigate();
  const online = useOnline();
  const type = accountType(account);
  const [draft, setDraft] = useState(() => draftOf(account));
  const { clear, err, reg, show } = useFieldProblem<Field>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const notes = useScreenToasts();
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = problemOf(account, type, draft);
    if (problem) {
      show(problem);
      notes.error(problem.message);
      return;
    }
    clear();
    setServerError(null);
    notes.dismissAll();
    setBusy(true);
    try {
      await putAccount(db, await updateClient(updateBody(account, type, draft)));
      toast.success(MSG.infoUpdated);
    } catch (error) {
      const m = error instanceof ApiError ? error.message : MSG.generic;
      setServerError(m);
      notes.error(m);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate>
      {serverError && (
        <div className="notice notice--error" role="alert">
          <p>{serverError}</p>
        </div>
      )}
      {!online && (
        <div className="notice notice--warning" role="status">
          <p>Sin conexión — conéctate a internet para guardar los cambios.</p>
        </div>
      )}
      <BillingFields type={type} draft={draft} set={set} err={err} reg={reg} />
      <div className="form-actions">
        <Button onClick={() => void navigate({ to: '/subscription' })} disabled={busy}>
          Cancelar
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Guardar
        </Button>
      </div>
    </form>
  );
}

function BillingFields({ type, draft, set, err, reg }: {
  type: PersonType;
  draft: Draft;
  set: (change: Partial<Draft>) => void;
  err: (field: Field) => string | null;
  reg: (field: Field) => (el: { focus(): void } | null) => void;
}) {
  return (
    <>
      <TextField
        label="RFC"
        value={draft.rfc}
        onChange={(e) => set({ rfc: e.target.value.toUpperCase().replace(/\s+/g, '') })}
        maxLength={type === 'empresa' ? RFC_COMPANY_LENGTH : RFC_PERSON_LENGTH}
        readOnly={type === 'extranjero'}
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        error={err('rfc')}
        inputRef={reg('rfc')}
      />
      {type === 'persona' ? (
        <>
          <TextField label="Nombre(s)" value={draft.firstName} onChange={(e) => set({ firstName: e.target.value })} maxLength={NAME_MAX} autoComplete="given-name" error={err('firstName')} inputRef={reg('firstName')} />
          <TextField label="Apellido(s)" value={draft.lastName} onChange={(e) => set({ lastName: e.target.value })} maxLength={NAME_MAX} autoComplete="family-name" error={err('lastName')} inputRef={reg('lastName')} />
        </>
      ) : (
        <TextField label="Nombre" value={draft.name} onChange={(e) => set({ name: e.target.value })} maxLength={NAME_MAX} autoComplete="organization" error={err('name')} inputRef={reg('name')} />
      )}
      {type !== 'extranjero' && (
        <CfdiTaxFields
          type={type}
          rfc={normalizeRfc(draft.rfc)}
          postalCode={draft.postalCode}
          taxRegime={draft.taxRegime}
          onChange={set}
          errors={{ postalCode: err('postalCode'), taxRegime: err('taxRegime') }}
          postalRef={reg('postalCode')}
          regimeRef={reg('taxRegime')}
          required
        />
      )}
    </>
  );
}

export function EditInvoicementPage() {
  const { accounts, sync } = useLayout();
  const navigate = useNavigate();
  const empty = accounts !== undefined && accounts.length === 0 && sync.status !== 'loading' && sync.status !== 'idle';
  useEffect(() => {
    if (empty && sync.status === 'done') void navigate({ to: '/add-client', replace: true });
  }, [empty, sync.status, navigate]);

  return (
    <main id="main" className="page page--form">
      <div className="page__title">
        <h1>Datos de facturación</h1>
      </div>
      {/* Keyed by account: switching accounts in the menu resets the form to the new one. */}
      <ForSelectedAccount lines={3}>{(account) => <EditForm key={account.diverza_client_id} account={account} />}</ForSelectedAccount>
    </main>
  );
}
