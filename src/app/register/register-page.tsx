// Registration (spec §2 Register, §4, §5): a four-step wizard — account, e-mail, tax data,
// confirmation with captcha. Values survive going back and forth; each step checks in the spec's order.
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { accountDisplayName } from '../../domain/account';
import { countryName } from '../../domain/countries';
import { normalizeEmail } from '../../domain/email';
import { MSG } from '../../domain/messages';
import { PASSWORD_MAX, PASSWORD_SCORE_LABELS, strengthPercent, type PasswordScore } from '../../domain/password';
import { normalizeUsername, USERNAME_MAX } from '../../domain/username';
import { saveSession } from '../../offline/session';
import { setPendingClient } from '../tax-data/pending-client';
import { ApiError } from '../../offline/http';
import { createUser, login, newClient } from '../api/endpoints';
import { AuthShell } from '../layout/auth-shell';
import { PasswordField } from '../ui/password-field';
import { safeRedirect } from '../top-level';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import { toast } from '../ui/toast-store';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';
import { Captcha } from './captcha';
import { isWeakScore, loadStrengthScorer } from './password-strength';
import { PrivacyNotice } from './privacy-notice';
import { referringPage } from './referrer';
import { effectiveRfc, toNewClientBody, type TaxField } from '../tax-data/tax-draft';
import { TaxDataPane, type TaxFieldRefs } from '../tax-data/tax-data-pane';
import { EMPTY_REGISTER_FORM, STEPS, stepIndex, validateStep, type FieldName, type RegisterForm, type StepId, type StepProblem } from './wizard';
import './register.css';

const TITLES: Record<StepId, string> = {
  account: 'Crea tu cuenta',
  email: 'Tu correo',
  tax: 'Tus datos fiscales',
  confirm: 'Confirma tus datos',
};

const TYPE_LABEL = { empresa: 'Empresa (persona moral)', persona: 'Persona física', extranjero: 'Extranjero' } as const;

/** Which step a server message belongs to, so the user lands where they can fix it. */
function stepForServerMessage(message: string): { step: StepId; field: FieldName } | null {
  if (message === MSG.usernameTaken || message === MSG.usernameShort || message === MSG.usernameLong) return { step: 'account', field: 'username' };
  if (message === MSG.passwordShort || message === MSG.passwordLong || message === MSG.passwordWeak || message === MSG.accountEmpty) return { step: 'account', field: 'password' };
  if (message === MSG.emailTaken || message === MSG.emailInvalid) return { step: 'email', field: 'email' };
  return null;
}

export function RegisterPage() {
  const search = useSearch({ from: '/register' });
  const navigate = useNavigate();
  const online = useOnline();
  const [form, setForm] = useState<RegisterForm>(EMPTY_REGISTER_FORM);
  const [step, setStep] = useState<StepId>('account');
  const [problem, setProblem] = useState<StepProblem | null>(null);
  const [blurMismatch, setBlurMismatch] = useState(false);
  const [score, setScore] = useState<PasswordScore | null>(null);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [privacyOpen, setPrivacyOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fieldRefs = useRef<Partial<Record<FieldName, HTMLInputElement | HTMLSelectElement | null>>>({});
  const taxRefs = useRef<TaxFieldRefs>({});
  const firstRender = useRef(true);
  const notes = useScreenToasts();

  // Score the password as it is typed; zxcvbn is fetched on first use. An empty password has no score (adjusted while rendering).
  if (!form.password && score !== null) setScore(null);
  useEffect(() => {
    if (!form.password) return;
    let live = true;
    loadStrengthScorer()
      .then((scoreOf) => live && setScore(scoreOf(form.password, [form.username, form.email])))
      .catch(() => live && setScore(null));
    return () => {
      live = false;
    };
  }, [form.password, form.username, form.email]);

  // Move focus to the new step's heading so screen readers hear where they are.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const set = (change: Partial<RegisterForm>) => {
    setForm((f) => ({ ...f, ...change }));
    // A message stays until the field it points at is edited.
    if (problem && (problem.field in change || (change.tax && problem.step === 'tax'))) setProblem(null);
  };
  const err = (field: FieldName) => (problem?.field === field ? problem.message : null);

  function focusField(field: FieldName) {
    requestAnimationFrame(() => {
      const el = taxRefs.current[field as TaxField] ?? fieldRefs.current[field];
      el?.focus();
    });
  }

  function show(p: StepProblem) {
    setProblem(p);
    notes.error(p.message);
    if (p.step !== step) setStep(p.step);
    focusField(p.field);
  }

  function next() {
    const p = validateStep(step, form);
    if (p) return show(p);
    // The server refuses what the meter shows as 'Muy débil' or 'Débil': say so before the next step.
    if (step === 'account' && score !== null && isWeakScore(score)) return show({ step: 'account', field: 'password', message: MSG.passwordWeak });
    setProblem(null);
    notes.dismissAll();
    const i = stepIndex(step);
    setStep(STEPS[i + 1]!.id);
  }

  function back() {
    setProblem(null);
    const i = stepIndex(step);
    if (i > 0) setStep(STEPS[i - 1]!.id);
  }

  async function submit() {
    const p = validateStep('confirm', form);
    if (p) return show(p);
    if (!captcha) {
      notes.error(MSG.captchaRequired);
      return;
    }
    setBusy(true);
    const username = normalizeUsername(form.username);
    try {
      await createUser({ username, email: normalizeEmail(form.email), password: form.password }, captcha);
    } catch (e) {
      const message = e instanceof ApiError ? e.message : MSG.generic;
      setCaptcha(null); // a payload is good for one try
      setBusy(false);
      const target = stepForServerMessage(message);
      if (target) show({ ...target, message });
      else notes.error(message);
      return;
    }
    try {
      const session = await login(username, form.password, true);
      await saveSession(session, true);
    } catch (e) {
      // The account exists: let them sign in by hand rather than create it twice.
      toast.error(e instanceof ApiError ? e.message : MSG.generic);
      await navigate({ to: '/login', replace: true });
      return;
    }
    try {
      await newClient(toNewClientBody(form.tax));
    } catch (e) {
      const message = e instanceof ApiError ? e.message : MSG.generic;
      setPendingClient({ draft: form.tax, error: message });
      toast.error(message);
      await navigate({ to: '/add-client', replace: true });
      return;
    }
    try {
      const [{ db }, sync] = await Promise.all([import('../../offline/db'), import('../layout/account-sync')]);
      await sync.syncAccounts(db);
      await sync.syncReferenceLists(db);
    } catch {
      // The layout pulls again on mount; nothing is lost.
    }
    const back = safeRedirect(search.redirect);
    if (back) {
      await navigate({ to: back, replace: true });
      return;
    }
    const ref = referringPage(document.referrer, window.location.href);
    if (ref) window.location.assign(ref);
    else await navigate({ to: '/', replace: true });
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (step === 'confirm') void submit();
    else next();
  }

  const current = stepIndex(step);
  const tax = form.tax;
  const taxError = problem?.step === 'tax' ? { field: problem.field as TaxField, message: problem.message } : null;

  return (
    <AuthShell title="Regístrate" wide>
      <ol className="steps" aria-label="Pasos del registro">
        {STEPS.map((s, i) => (
          <li key={s.id} className={i < current ? 'steps__item steps__item--done' : 'steps__item'} aria-current={s.id === step ? 'step' : undefined}>
            <span className="steps__num" aria-hidden="true">
              {i + 1}
            </span>
            <span className="steps__label">{s.label}</span>
            <span className="visually-hidden">{i < current ? ' (completado)' : ''}</span>
          </li>
        ))}
      </ol>

      <form className="stack" onSubmit={onSubmit} noValidate>
        <h2 ref={headingRef} tabIndex={-1} className="step-title">
          {TITLES[step]}
          <span className="visually-hidden">
            , paso {current + 1} de {STEPS.length}
          </span>
        </h2>

        {step === 'account' && (
          <>
            <TextField
              label="Nombre de usuario"
              value={form.username}
              onChange={(e) => set({ username: normalizeUsername(e.target.value) })}
              hint={MSG.usernameHint}
              maxLength={USERNAME_MAX}
              autoComplete="username"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              error={err('username')}
              inputRef={(el) => {
                fieldRefs.current.username = el;
              }}
            />
            <div className="stack" style={{ gap: 8 }}>
              <PasswordField
                label="Contraseña"
                value={form.password}
                onChange={(e) => set({ password: e.target.value })}
                maxLength={PASSWORD_MAX}
                autoComplete="new-password"
                error={err('password')}
                inputRef={(el) => {
                  fieldRefs.current.password = el;
                }}
              />
              <div className="strength">
                <div
                  className="strength__track"
                  role="progressbar"
                  aria-label="Seguridad de la contraseña"
                  aria-valuemin={0}
                  aria-valuemax={4}
                  aria-valuenow={score ?? 0}
                  aria-valuetext={score === null ? 'Sin calcular' : PASSWORD_SCORE_LABELS[score]}
                >
                  <div className={`strength__bar strength__bar--${score ?? 0}`} style={{ width: `${strengthPercent(score ?? 0)}%` }} />
                </div>
                <span className="strength__label" aria-hidden="true">
                  {score === null ? 'Seguridad de la contraseña' : PASSWORD_SCORE_LABELS[score]}
                </span>
              </div>
            </div>
            <PasswordField
              label="Confirma tu contraseña"
              value={form.passwordConfirmation}
              onChange={(e) => {
                set({ passwordConfirmation: e.target.value });
                setBlurMismatch(false);
              }}
              onBlur={(e) => {
                // Leaving for a button (e.g. 'Siguiente'): that click checks anyway, and showing the
                // message now would shift the button away from under the pointer and lose the click.
                if (e.relatedTarget instanceof HTMLButtonElement) return;
                setBlurMismatch(!!form.passwordConfirmation && form.passwordConfirmation !== form.password);
              }}
              maxLength={PASSWORD_MAX}
              autoComplete="new-password"
              error={err('passwordConfirmation') ?? (blurMismatch ? MSG.passwordsDifferBlur : null)}
              inputRef={(el) => {
                fieldRefs.current.passwordConfirmation = el;
              }}
            />
          </>
        )}

        {step === 'email' && (
          <>
            <p className="muted">Usaremos tu correo para enviarte tus facturas y para que puedas recuperar tu contraseña.</p>
            <TextField
              label="Correo electrónico"
              type="email"
              value={form.email}
              onChange={(e) => set({ email: e.target.value })}
              autoComplete="email"
              inputMode="email"
              maxLength={254}
              error={err('email')}
              inputRef={(el) => {
                fieldRefs.current.email = el;
              }}
            />
            <TextField
              label="Confirma tu correo"
              type="email"
              value={form.emailConfirmation}
              onChange={(e) => set({ emailConfirmation: e.target.value })}
              autoComplete="email"
              inputMode="email"
              maxLength={254}
              error={err('emailConfirmation')}
              inputRef={(el) => {
                fieldRefs.current.emailConfirmation = el;
              }}
            />
            <p className="muted" style={{ margin: 0 }}>
              Al registrarte aceptas nuestro{' '}
              <button type="button" className="link-button" onClick={() => setPrivacyOpen(true)}>
                aviso de privacidad
              </button>
              .
            </p>
          </>
        )}

        {step === 'tax' && <TaxDataPane value={tax} onChange={(t) => set({ tax: t })} error={taxError} fieldRefs={taxRefs} />}

        {step === 'confirm' && (
          <>
            <dl className="summary">
              <dt>Nombre de usuario</dt>
              <dd>{normalizeUsername(form.username)}</dd>
              <dt>Correo electrónico</dt>
              <dd>{normalizeEmail(form.email)}</dd>
              <dt>Tipo</dt>
              <dd>{TYPE_LABEL[tax.type]}</dd>
              <dt>RFC</dt>
              <dd className="tabular">{effectiveRfc(tax)}</dd>
              <dt>{tax.type === 'persona' ? 'Nombre' : 'Razón Social'}</dt>
              <dd>
                {accountDisplayName({
                  rfc: effectiveRfc(tax),
                  name: tax.type === 'persona' ? null : tax.name.trim(),
                  first_name: tax.type === 'persona' ? tax.firstName.trim() : null,
                  last_name: tax.type === 'persona' ? tax.lastName.trim() : null,
                })}
              </dd>
              {tax.type === 'extranjero' && (
                <>
                  <dt>Registro de identidad fiscal</dt>
                  <dd>{tax.taxId}</dd>
                </>
              )}
              <dt>País</dt>
              <dd>{tax.type === 'extranjero' ? (countryName(tax.country) ?? tax.country) : 'México'}</dd>
            </dl>
            <Captcha solved={captcha !== null} onSolved={setCaptcha} />
            {!online && (
              <div className="notice notice--warning" role="status">
                <p>Sin conexión — conéctate a internet para crear tu cuenta. Tus datos siguen aquí.</p>
              </div>
            )}
          </>
        )}

        <div className="wizard-nav">
          {current > 0 ? (
            <Button onClick={back} disabled={busy}>
              Atrás
            </Button>
          ) : (
            <span />
          )}
          {step === 'confirm' ? (
            <Button type="submit" variant="primary" disabled={!captcha} loading={busy}>
              Crear cuenta
            </Button>
          ) : (
            <Button type="submit" variant="primary">
              Siguiente
            </Button>
          )}
        </div>
      </form>

      <div className="auth__links" style={{ marginTop: 16 }}>
        <span className="muted">¿Ya tienes cuenta?</span>
        <Link to="/login" search={search.redirect ? { redirect: search.redirect } : {}}>
          Inicia sesión
        </Link>
      </div>
      <PrivacyNotice open={privacyOpen} onClose={() => setPrivacyOpen(false)} />
    </AuthShell>
  );
}
