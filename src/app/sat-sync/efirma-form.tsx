// 'Método oficial del SAT: e.firma': the .cer, the .key and its password, sent as multipart to the server,
// which opens them and answers the MSG.efirma* reason when it cannot. Files are checked for size first.
import { useState, type FormEvent, type Ref } from 'react';
import { useFieldRefs } from '../ui/use-field-problem';
import { displayDate } from '../../domain/dates';
import type { SatSyncStatus } from '../../domain/sat-sync';
import { PasswordField } from '../ui/password-field';
import { Button } from '../ui/button';
import { FileField } from '../ui/file-field';
import { Icon } from '../ui/icon';
import { checkEfirma, connectEfirma, SYNC_TXT, type EfirmaDraft, type EfirmaField, type FlowContext } from './sync-model';

const NOTICE_CLASS = { offline: 'info', error: 'error' } as const;
const NOTICE_ICON = { offline: 'wifiOff', error: 'alert' } as const;

export function EfirmaForm({ ctx, efirma, onConnected, headingRef }: { ctx: FlowContext; efirma: SatSyncStatus['efirma']; onConnected: () => void; headingRef?: Ref<HTMLHeadingElement> }) {
  const [draft, setDraft] = useState<EfirmaDraft>({ cer: null, key: null, password: '' });
  const [fieldError, setFieldError] = useState<{ field: EfirmaField; message: string } | null>(null);
  const [notice, setNotice] = useState<{ kind: 'offline' | 'error'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const { reg, focus } = useFieldRefs<'cer' | 'key' | 'password'>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setNotice(null);
    const bad = checkEfirma(draft);
    setFieldError(bad);
    if (bad || !draft.cer || !draft.key) {
      if (bad) focus(bad.field);
      return;
    }
    setBusy(true);
    const out = await connectEfirma(ctx, { cer: draft.cer, key: draft.key, password: draft.password });
    setBusy(false);
    if (out.kind === 'ok') {
      setDraft({ cer: null, key: null, password: '' });
      setFormKey((k) => k + 1);
      onConnected();
    } else {
      setNotice({ kind: out.kind === 'offline' ? 'offline' : 'error', message: out.message });
    }
  }

  const errorOf = (f: EfirmaField) => (fieldError?.field === f ? fieldError.message : null);
  return (
    <section className="card stack" aria-labelledby="sat-efirma-title">
      <h2 id="sat-efirma-title" ref={headingRef} tabIndex={-1}>
        {SYNC_TXT.efirmaTitle}
      </h2>
      <p className="muted">
        Es la forma oficial de descargar tus comprobantes del SAT. Sube el certificado (.cer), la llave privada (.key) y la contraseña de
        tu e.firma; los guardamos cifrados y solo los usamos para descargar tus comprobantes.
      </p>
      {efirma && (
        <dl className="sat-facts">
          <dt>Certificado</dt>
          <dd className="tabular">{efirma.serial}</dd>
          <dt>Vigente hasta</dt>
          <dd className="tabular">{displayDate(efirma.valid_until)}</dd>
        </dl>
      )}
      <form key={formKey} className="stack sat-form" noValidate onSubmit={(e) => void submit(e)}>
        <FileField
          label="Certificado (.cer)"
          accept=".cer"
          fileName={draft.cer?.name ?? null}
          onFile={(cer) => setDraft((d) => ({ ...d, cer }))}
          error={errorOf('cer')}
          inputRef={reg('cer')}
        />
        <FileField
          label="Llave privada (.key)"
          accept=".key"
          fileName={draft.key?.name ?? null}
          onFile={(key) => setDraft((d) => ({ ...d, key }))}
          error={errorOf('key')}
          inputRef={reg('key')}
        />
        <PasswordField
          label="Contraseña de tu e.firma"
          name="efirma_password"
          autoComplete="off"
          value={draft.password}
          onChange={(e) => setDraft((d) => ({ ...d, password: e.target.value }))}
          error={errorOf('password')}
          inputRef={reg('password')}
        />
        <div aria-live="polite" className="sat-form__live">
          {notice && (
            <div className={`notice notice--${NOTICE_CLASS[notice.kind]}`} role="alert">
              <p>
                <Icon name={NOTICE_ICON[notice.kind]} /> {notice.message}
              </p>
            </div>
          )}
        </div>
        <div className="form-actions">
          <Button type="submit" variant={efirma ? 'secondary' : 'primary'} loading={busy}>
            <Icon name="upload" /> {efirma ? 'Reemplazar e.firma' : 'Subir e.firma'}
          </Button>
        </div>
      </form>
    </section>
  );
}
