// Registration (spec §2 Register, §4, §5): a four-step wizard — account, e-mail, tax data,
// confirmation with captcha. Values survive going back and forth; each step checks in the spec's order.
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { normalizeEmail } from '../../domain/email';
import type { PasswordScore } from '../../domain/password';
import { normalizeUsername } from '../../domain/username';
import { ApiError } from '../../offline/http';
import { createUser } from '../api/endpoints';
import { AuthShell } from '../layout/auth-shell';
import type { TaxField } from '../tax-data/tax-draft';
import { TaxDataPane, type TaxFieldRefs } from '../tax-data/tax-data-pane';
import { useFieldRefs } from '../ui/use-field-problem';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';
import { Captcha } from './captcha';
import { finishSignUp } from './finish-sign-up';
import { isWeakScore, loadStrengthScorer } from './password-strength';
import { PrivacyNotice } from './privacy-notice';
import { AccountStep, ConfirmSummary, EmailStep, StepList, WizardNav } from './register-steps';
import { EMPTY_REGISTER_FORM, STEPS, stepIndex, validateStep, type FieldName, type RegisterForm, type StepId, type StepProblem } from './wizard';
import './register.css';

const TITLES: Record<StepId, string> = {
  account: 'Crea tu cuenta',
  email: 'Tu correo',
  tax: 'Tus datos fiscales',
  confirm: 'Confirma tus datos',
};

/** Which step a server message belongs to, so the user lands where they can fix it. */
function stepForServerMessage(message: string): { step: StepId; field: FieldName } | null {
  if (message === MSG.usernameTaken || message === MSG.usernameShort || message === MSG.usernameLong) return { step: 'account', field: 'username' };
  if (message === MSG.passwordShort || message === MSG.passwordLong || message === MSG.passwordWeak || message === MSG.accountEmpty) return { step: 'account', field: 'password' };
  if (message === MSG.emailTaken || message === MSG.emailInvalid) return { step: 'email', field: 'email' };
  return null;
}

/** The password's score as it is typed; zxcvbn is fetched on first use. An empty password has none. */
function usePasswordScore({ password, username, email }: RegisterForm): PasswordScore | null {
  const [score, setScore] = useState<PasswordScore | null>(null);
  // Cleared while rendering, not in an effect, when the password is emptied.
  if (!password && score !== null) setScore(null);
  useEffect(() => {
    if (!password) return;
    let live = true;
    loadStrengthScorer()
      .then((scoreOf) => live && setScore(scoreOf(password, [username, email])))
      .catch(() => live && setScore(null));
    return () => {
      live = false;
    };
  }, [password, username, email]);
  return score;
}

export function RegisterPage() {
  const search = useSearch({ from: '/register' });
  const navigate = useNavigate();
  const online = useOnline();
  const [form, setForm] = useState<RegisterForm>(EMPTY_REGISTER_FORM);
  const [step, setStep] = useState<StepId>('account');
  const [problem, setProblem] = useState<StepProblem | null>(null);
  const [blurMismatch, setBlurMismatch] = useState(false);
  const score = usePasswordScore(form);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [privacyOpen, setPrivacyOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { reg, element } = useFieldRefs<FieldName, HTMLInputElement>();
  const taxRefs = useRef<TaxFieldRefs>({});
  const firstRender = useRef(true);
  const notes = useScreenToasts();

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
      const el = taxRefs.current[field as TaxField] ?? element(field);
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
    await finishSignUp(form, username, search.redirect, navigate);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (step === 'confirm') void submit();
    else next();
  }

  const current = stepIndex(step);
  const taxError = problem?.step === 'tax' ? { field: problem.field as TaxField, message: problem.message } : null;
  const fields = { form, set, err, reg };

  return (
    <AuthShell title="Regístrate" wide>
      <StepList step={step} current={current} />

      <form className="stack" onSubmit={onSubmit} noValidate>
        <h2 ref={headingRef} tabIndex={-1} className="step-title">
          {TITLES[step]}
          <span className="visually-hidden">
            , paso {current + 1} de {STEPS.length}
          </span>
        </h2>

        {step === 'account' && <AccountStep {...fields} score={score} blurMismatch={blurMismatch} onBlurMismatch={setBlurMismatch} />}
        {step === 'email' && <EmailStep {...fields} onPrivacy={() => setPrivacyOpen(true)} />}
        {step === 'tax' && <TaxDataPane value={form.tax} onChange={(t) => set({ tax: t })} error={taxError} fieldRefs={taxRefs} />}
        {step === 'confirm' && (
          <>
            <ConfirmSummary form={form} />
            <Captcha solved={captcha !== null} onSolved={setCaptcha} />
            {!online && (
              <div className="notice notice--warning" role="status">
                <p>Sin conexión — conéctate a internet para crear tu cuenta. Tus datos siguen aquí.</p>
              </div>
            )}
          </>
        )}

        <WizardNav current={current} last={step === 'confirm'} busy={busy} canCreate={!!captcha} onBack={back} />
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
