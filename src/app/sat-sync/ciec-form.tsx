// 'Contraseña del SAT' + 'Confirma tu contraseña' (spec §2, §5, §7, §8): checked in order on the phone,
// then SAT authenticate and save; 400 is shown inline on the password; success is told by the status card
// (the page's onConnected), so no banner here outlives the sync it announced.
// What the user typed stays while offline or on failure; it is cleared only after a success.
import { useState, type FormEvent } from 'react';
import { useFieldRefs } from '../ui/use-field-problem';
import { PasswordField } from '../ui/password-field';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { checkSatPassword, connectCiec, SYNC_TXT, type FlowContext, type SatField } from './sync-model';

export function CiecForm({ ctx, connected, onConnected, onUseEfirma }: { ctx: FlowContext; connected: boolean; onConnected: () => void; onUseEfirma: (() => void) | null }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldError, setFieldError] = useState<{ field: SatField; message: string } | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'unavailable' | 'offline'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const { reg, focus } = useFieldRefs<'password' | 'confirm'>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setNotice(null);
    const bad = checkSatPassword(password, confirm);
    setFieldError(bad);
    if (bad) {
      focus(bad.field);
      return;
    }
    setBusy(true);
    const out = await connectCiec(ctx, password);
    setBusy(false);
    switch (out.kind) {
      case 'ok':
        setPassword('');
        setConfirm('');
        onConnected();
        break;
      case 'invalid':
        setFieldError({ field: 'password', message: out.message });
        focus('password');
        break;
      case 'unavailable':
        setNotice({ kind: 'unavailable', message: out.message });
        break;
      case 'offline':
        setNotice({ kind: 'offline', message: out.message });
        break;
      default:
        setNotice({ kind: 'error', message: out.message });
    }
  }

  const errorOf = (f: SatField) => (fieldError?.field === f ? fieldError.message : null);
  return (
    <section className="card stack" aria-labelledby="sat-ciec-title">
      <h2 id="sat-ciec-title">{SYNC_TXT.ciecTitle}</h2>
      <p className="muted">
        {connected
          ? 'Si cambiaste tu contraseña en el SAT, escribe la nueva para seguir descargando tus comprobantes.'
          : 'Escribe la contraseña con la que entras al portal del SAT (CIEC). Con ella descargaremos cada día los comprobantes del día anterior.'}
      </p>
      <form className="stack sat-form" noValidate onSubmit={(e) => void submit(e)}>
        <PasswordField
          label={SYNC_TXT.password}
          name="sat_password"
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errorOf('password')}
          inputRef={reg('password')}
          maxLength={64}
        />
        <PasswordField
          label={SYNC_TXT.confirm}
          name="sat_password_confirmation"
          autoComplete="off"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errorOf('confirm')}
          inputRef={reg('confirm')}
          maxLength={64}
        />
        <div aria-live="polite" className="sat-form__live">
          {notice && (
            <div className={notice.kind === 'error' ? 'notice notice--error' : 'notice notice--info'} role="alert">
              <p>
                <Icon name={notice.kind === 'offline' ? 'wifiOff' : notice.kind === 'error' ? 'alert' : 'info'} /> {notice.message}
              </p>
              {notice.kind === 'unavailable' && onUseEfirma && (
                <p>
                  <button type="button" className="link-button" onClick={onUseEfirma}>
                    Ir a la e.firma
                  </button>
                </p>
              )}
            </div>
          )}
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" loading={busy}>
            {connected ? 'Actualizar contraseña' : 'Conectar con el SAT'}
          </Button>
        </div>
      </form>
    </section>
  );
}
