// Edit billing data (spec §2): RFC and Nombre (companies) or Nombre(s)/Apellido(s) (individuals), plus the
// postal code and regime CFDI 4.0 asks of a receiver.
// 'Cancelar' returns to the subscription profile (spec §2).
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { accountType, type Account } from '../../domain/account';
import { MSG } from '../../domain/messages';
import { NAME_MAX, checkTaxData } from '../../domain/registration';
import { normalizeRfc, RFC_COMPANY_LENGTH, RFC_PERSON_LENGTH } from '../../domain/rfc';
import { db } from '../../offline/db';
import { putAccount } from '../../offline/local-data';
import { ApiError } from '../../offline/http';
import { updateClient } from '../api/endpoints';
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

function EditForm({ account }: { account: Account }) {
  const navigate = useNavigate();
  const online = useOnline();
  const type = accountType(account);
  const [rfc, setRfc] = useState(account.rfc);
  const [name, setName] = useState(account.name ?? '');
  const [firstName, setFirstName] = useState(account.first_name ?? '');
  const [lastName, setLastName] = useState(account.last_name ?? '');
  const [postalCode, setPostalCode] = useState(account.address[0]?.zip_code ?? '');
  const [taxRegime, setTaxRegime] = useState(account.regimen_fiscal ?? '');
  const foreign = type === 'extranjero';
  const { clear, err, reg, show } = useFieldProblem<Field>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const notes = useScreenToasts();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const message = checkTaxData({
      type, rfc, name, firstName, lastName, country: account.residencia_fiscal ?? '', taxId: account.num_reg_id_trib ?? '',
      ...(foreign ? {} : { postalCode, taxRegime }),
    });
    if (message && message !== MSG.countryInvalid) {
      const field: Field =
        message === MSG.rfcInvalid ? 'rfc'
        : message === MSG.postalCodeInvalid ? 'postalCode'
        : message === MSG.regimeInvalid ? 'taxRegime'
        : type === 'persona' ? (firstName.trim() ? 'lastName' : 'firstName') : 'name';
      show({ field, message });
      notes.error(message);
      return;
    }
    clear();
    setServerError(null);
    notes.dismissAll();
    setBusy(true);
    try {
      const cfdi = foreign ? {} : { zip_code: postalCode.trim(), regimen_fiscal: taxRegime };
      const updated = await updateClient(
        type === 'persona'
          ? { diverza_client_id: account.diverza_client_id, rfc: normalizeRfc(rfc), first_name: firstName.trim(), last_name: lastName.trim(), ...cfdi }
          : { diverza_client_id: account.diverza_client_id, rfc: normalizeRfc(rfc), name: name.trim(), ...cfdi },
      );
      await putAccount(db, updated);
      toast.success(MSG.infoUpdated);
      setBusy(false);
    } catch (err) {
      const m = err instanceof ApiError ? err.message : MSG.generic;
      setServerError(m);
      notes.error(m);
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
      <TextField
        label="RFC"
        value={rfc}
        onChange={(e) => setRfc(e.target.value.toUpperCase().replace(/\s+/g, ''))}
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
          <TextField label="Nombre(s)" value={firstName} onChange={(e) => setFirstName(e.target.value)} maxLength={NAME_MAX} autoComplete="given-name" error={err('firstName')} inputRef={reg('firstName')} />
          <TextField label="Apellido(s)" value={lastName} onChange={(e) => setLastName(e.target.value)} maxLength={NAME_MAX} autoComplete="family-name" error={err('lastName')} inputRef={reg('lastName')} />
        </>
      ) : (
        <TextField label="Nombre" value={name} onChange={(e) => setName(e.target.value)} maxLength={NAME_MAX} autoComplete="organization" error={err('name')} inputRef={reg('name')} />
      )}
      {!foreign && (
        <CfdiTaxFields
          rfc={normalizeRfc(rfc)}
          postalCode={postalCode}
          taxRegime={taxRegime}
          onChange={(c) => {
            if (c.postalCode !== undefined) setPostalCode(c.postalCode);
            if (c.taxRegime !== undefined) setTaxRegime(c.taxRegime);
          }}
          errors={{ postalCode: err('postalCode'), taxRegime: err('taxRegime') }}
          postalRef={reg('postalCode')}
          regimeRef={reg('taxRegime')}
        />
      )}
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
