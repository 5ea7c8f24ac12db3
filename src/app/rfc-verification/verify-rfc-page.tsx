// 'Verificar RFC': prove the selected account's RFC with the e.firma (.cer, .key and password, checked by
// the server in memory) or with the CIEC (SAT's portal lets its holder in), or go to 'Sincronización SAT'.
// Verified, it says so and how. Loading, offline, error and success are announced; works at 360 px.
import { useRef, useState, type FormEvent } from 'react';
import { useFieldRefs } from '../ui/use-field-problem';
import { accountType, type Account } from '../../domain/account';
import { MSG } from '../../domain/messages';
import { isRfcVerified } from '../../domain/rfc-verification';
import { db } from '../../offline/db';
import { PasswordField } from '../ui/password-field';
import { syncAccounts } from '../layout/account-sync';
import { ForSelectedAccount } from '../layout/for-selected-account';
import { Button, buttonClass } from '../ui/button';
import { FileField } from '../ui/file-field';
import { Icon } from '../ui/icon';
import { useOnline } from '../use-online';
import { verifyWithCiec, verifyWithEfirma } from './rfc-verification-api';
import { checkCiec, checkEfirmaDraft, failureText, VERIFY_TXT, type EfirmaField } from './verify-model';
import './rfc-verification.css';

type Notice = { kind: 'ok' | 'error'; message: string } | null;

function Live({ notice }: { notice: Notice }) {
  return (
    <div aria-live="polite" className="verify-rfc__live">
      {notice && (
        <div className={`notice notice--${notice.kind === 'ok' ? 'success' : 'error'}`} role={notice.kind === 'ok' ? 'status' : 'alert'}>
          <p>
            <Icon name={notice.kind === 'ok' ? 'check' : 'alert'} /> {notice.message}
          </p>
        </div>
      )}
    </div>
  );
}

/** After a proof: the accounts again from the server, so Dexie (menu, Perfil) carries rfc_verified. */
async function refreshAccounts(): Promise<void> {
  await syncAccounts(db).catch(() => undefined);
}

function EfirmaProof({ account, online }: { account: Account; online: boolean }) {
  const [draft, setDraft] = useState<{ cer: File | null; key: File | null; password: string }>({ cer: null, key: null, password: '' });
  const [fieldError, setFieldError] = useState<{ field: EfirmaField; message: string } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const { reg, focus } = useFieldRefs<EfirmaField>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setNotice(null);
    const bad = checkEfirmaDraft(draft);
    setFieldError(bad);
    if (bad || !draft.cer || !draft.key) {
      if (bad) focus(bad.field);
      return;
    }
    if (!online) {
      setNotice({ kind: 'error', message: VERIFY_TXT.offline });
      return;
    }
    setBusy(true);
    try {
      await verifyWithEfirma(account.diverza_client_id, { cer: draft.cer, key: draft.key, password: draft.password });
      setDraft((d) => ({ ...d, password: '' }));
      setNotice({ kind: 'ok', message: MSG.rfcVerifiedNow });
      await refreshAccounts();
    } catch (err) {
      setNotice({ kind: 'error', message: failureText(err) });
    } finally {
      setBusy(false);
    }
  }

  const errorOf = (f: EfirmaField) => (fieldError?.field === f ? fieldError.message : null);
  return (
    <section className="card stack" aria-labelledby="verify-efirma-title">
      <h2 id="verify-efirma-title">{VERIFY_TXT.efirmaTitle}</h2>
      <p className="muted">{VERIFY_TXT.efirmaHelp}</p>
      <form className="stack verify-rfc__form" noValidate onSubmit={(e) => void submit(e)}>
        <FileField label="Certificado (.cer)" accept=".cer" fileName={draft.cer?.name ?? null} onFile={(cer) => setDraft((d) => ({ ...d, cer }))} error={errorOf('cer')} inputRef={reg('cer')} />
        <FileField label="Llave privada (.key)" accept=".key" fileName={draft.key?.name ?? null} onFile={(key) => setDraft((d) => ({ ...d, key }))} error={errorOf('key')} inputRef={reg('key')} />
        <PasswordField
          label="Contraseña de tu e.firma"
          name="efirma_password"
          autoComplete="off"
          value={draft.password}
          onChange={(e) => setDraft((d) => ({ ...d, password: e.target.value }))}
          error={errorOf('password')}
          inputRef={reg('password')}
        />
        <Live notice={notice} />
        <div className="form-actions">
          <Button type="submit" variant="primary" loading={busy}>
            <Icon name="check" /> {VERIFY_TXT.efirmaSubmit}
          </Button>
        </div>
      </form>
    </section>
  );
}

function CiecProof({ account, online }: { account: Account; online: boolean }) {
  const [ciec, setCiec] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setNotice(null);
    const bad = checkCiec(ciec);
    setError(bad);
    if (bad) {
      input.current?.focus();
      return;
    }
    if (!online) {
      setNotice({ kind: 'error', message: VERIFY_TXT.offline });
      return;
    }
    setBusy(true);
    try {
      await verifyWithCiec(account.rfc, ciec);
      setCiec('');
      setNotice({ kind: 'ok', message: MSG.rfcVerifiedNow });
      await refreshAccounts();
    } catch (err) {
      setNotice({ kind: 'error', message: failureText(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby="verify-ciec-title">
      <h2 id="verify-ciec-title">{VERIFY_TXT.ciecTitle}</h2>
      <p className="muted">{VERIFY_TXT.ciecHelp}</p>
      <form className="stack verify-rfc__form" noValidate onSubmit={(e) => void submit(e)}>
        <PasswordField label="Contraseña del SAT" name="ciec" autoComplete="off" value={ciec} onChange={(e) => setCiec(e.target.value)} error={error} inputRef={input} />
        <Live notice={notice} />
        <div className="form-actions verify-rfc__actions">
          <Button type="submit" variant="primary" loading={busy}>
            <Icon name="check" /> {VERIFY_TXT.ciecSubmit}
          </Button>
          {accountType(account) === 'persona' && (
            <a href="/#/sync" className={buttonClass('secondary')}>
              <Icon name="upload" /> {VERIFY_TXT.syncLink}
            </a>
          )}
        </div>
      </form>
    </section>
  );
}

export function VerifyRfc({ account }: { account: Account }) {
  const online = useOnline();
  if (isRfcVerified(account)) {
    return (
      <section className="card stack verify-rfc__done" aria-labelledby="verify-done-title">
        <h2 id="verify-done-title">
          <Icon name="check" /> {VERIFY_TXT.verifiedTitle}
        </h2>
        <p role="status">
          {account.rfc}. {account.rfc_verified_by ? VERIFY_TXT.verifiedBy[account.rfc_verified_by] : ''}
        </p>
        <div>
          <a href="/#/" className={buttonClass('secondary')}>
            {VERIFY_TXT.back}
          </a>
        </div>
      </section>
    );
  }
  return (
    <div className="stack verify-rfc">
      <section className="card stack" aria-labelledby="verify-intro-title">
        <h2 id="verify-intro-title" className="tabular">
          {account.rfc}
        </h2>
        <p>{VERIFY_TXT.intro}</p>
        <p className="muted">{VERIFY_TXT.privacy}</p>
        {!online && (
          <div className="notice notice--info" role="status">
            <p>
              <Icon name="wifiOff" /> {VERIFY_TXT.offline}
            </p>
          </div>
        )}
      </section>
      <div className="verify-rfc__methods">
        <EfirmaProof account={account} online={online} />
        <CiecProof account={account} online={online} />
      </div>
    </div>
  );
}

export function VerifyRfcPage() {
  return (
    <main id="main" className="page verify-rfc-page">
      <div className="page__title">
        <h1>{VERIFY_TXT.title}</h1>
      </div>
      <ForSelectedAccount loading="Cargando tu cuenta…">{(account) => <VerifyRfc key={account.diverza_client_id} account={account} />}</ForSelectedAccount>
    </main>
  );
}
