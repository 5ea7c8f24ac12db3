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
import { useUsernameAvailability, type UsernameState } from '../api/username-availability';
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

/** What leaving step 1 needs besides the spec's checks: a password the server accepts and a free name. */
async function accountExtraProblem(score: PasswordScore | null, ensureFree: () => Promise<UsernameState>): Promise<StepProblem | null> {
  // The server refuses what the meter shows as 'Muy débil' or 'Débil': say so before the next step.
  if (score !== null && isWeakScore(score)) return { step: 'account', field: 'password', message: MSG.passwordWeak };
  if ((await ensureFree()) === 'taken') return { step: 'account', field: 'username', message: MSG.usernameTaken };
  return null;
}

/** Creates the user; on a refusal, the problem to show (on its step when the message names a field). */
async function createAccount(form: RegisterForm, captcha: string): Promise<StepProblem | string | null> {
  try {
    await createUser({ username: normalizeUsername(form.username), email: normalizeEmail(form.email), password: form.password }, captcha);
    return null;
  } catch (e) {
    const message = e instanceof ApiError ? e.message : MSG.generic;
    const target = stepForServerMessage(message);
    return target ? { ...target, message } : message;
  }
}

/** The wizard's state: the form, the step, the one problem shown, the captcha and the moves between steps. */
function useRegisterWizard() {
  const search = useSearch({ from: '/register' });
  const navigate = useNavigate();
  const [form, setForm] = useState<RegisterForm>(EMPTY_REGISTER_FORM);
  const [step, setStep] = useState<StepId>('account');
  const [problem, setProblem] = useState<StepProblem | null>(null);
  const score = usePasswordScore(form);
  const availability = useUsernameAvailability(form.username);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { reg, element } = useFieldRefs<FieldName, HTMLInputElement>();
  const taxRefs = useRef<TaxFieldRefs>({});
  const notes = useScreenToasts();

  const set = (change: Partial<RegisterForm>) => {
    setForm((f) => ({ ...f, ...change }));
    // A message stays until the field it points at is edited.
    if (problem && (problem.field in change || (change.tax && problem.step === 'tax'))) {
      setProblem(null);
      // Its toast goes with it: a message about what was just changed would outlive its error.
      notes.dismissAll();
    }
  };

  function show(p: StepProblem) {
    setProblem(p);
    notes.error(p.message);
    if (p.step !== step) setStep(p.step);
    requestAnimationFrame(() => (taxRefs.current[p.field as TaxField] ?? element(p.field))?.focus());
  }

  async function next() {
    const p = validateStep(step, form) ?? (step === 'account' ? await accountExtraProblem(score, availability.ensure) : null);
    if (p) return show(p);
    setProblem(null);
    notes.dismissAll();
    setStep(STEPS[stepIndex(step) + 1]!.id);
  }

  function back() {
    setProblem(null);
    const i = stepIndex(step);
    if (i > 0) setStep(STEPS[i - 1]!.id);
  }

  async function submit() {
    const p = validateStep('confirm', form);
    if (p) return show(p);
    if (!captcha) return notes.error(MSG.captchaRequired);
    setBusy(true);
    const refused = await createAccount(form, captcha);
    if (refused === null) return finishSignUp(form, normalizeUsername(form.username), search.redirect, navigate);
    setCaptcha(null); // a payload is good for one try
    setBusy(false);
    if (typeof refused === 'string') notes.error(refused);
    else show(refused);
  }

  const err = (field: FieldName) => (problem?.field === field ? problem.message : null);
  const taxError = problem?.step === 'tax' ? { field: problem.field as TaxField, message: problem.message } : null;
  return { search, form, step, score, availability, captcha, setCaptcha, busy, taxRefs, taxError, fields: { form, set, err, reg }, next, back, submit };
}

/** Moves focus to a new step's heading so screen readers hear where they are (not on first render). */
function useFocusOnStep(step: StepId) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);
  return headingRef;
}

type Wizard = ReturnType<typeof useRegisterWizard>;

function StepBody({ w, online, onPrivacy }: { w: Wizard; online: boolean; onPrivacy: () => void }) {
  switch (w.step) {
    case 'account':
      return <AccountStep {...w.fields} score={w.score} availability={w.availability} />;
    case 'email':
      return <EmailStep {...w.fields} onPrivacy={onPrivacy} />;
    case 'tax':
      return <TaxDataPane value={w.form.tax} onChange={(t) => w.fields.set({ tax: t })} error={w.taxError} fieldRefs={w.taxRefs} />;
    case 'confirm':
      return (
        <>
          <ConfirmSummary form={w.form} />
          <Captcha solved={w.captcha !== null} onSolved={w.setCaptcha} />
          {!online && (
            <div className="notice notice--warning" role="status">
              <p>Sin conexión — conéctate a internet para crear tu cuenta. Tus datos siguen aquí.</p>
            </div>
          )}
        </>
      );
  }
}

export function RegisterPage() {
  const w = useRegisterWizard();
  const online = useOnline();
  const [privacyOpen, setPrivacyOpen] = useState(false);
  const headingRef = useFocusOnStep(w.step);
  const current = stepIndex(w.step);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void (w.step === 'confirm' ? w.submit() : w.next());
  }

  return (
    <AuthShell title="Regístrate" wide>
      <StepList step={w.step} current={current} />

      <form className="stack" onSubmit={onSubmit} noValidate>
        <h2 ref={headingRef} tabIndex={-1} className="step-title">
          {TITLES[w.step]}
          <span className="visually-hidden">
            , paso {current + 1} de {STEPS.length}
          </span>
        </h2>
        <StepBody w={w} online={online} onPrivacy={() => setPrivacyOpen(true)} />
        <WizardNav current={current} last={w.step === 'confirm'} busy={w.busy} canCreate={!!w.captcha} onBack={w.back} />
      </form>

      <div className="auth__links" style={{ marginTop: 16 }}>
        <span className="muted">¿Ya tienes cuenta?</span>
        <Link to="/login" search={w.search.redirect ? { redirect: w.search.redirect } : {}}>
          Inicia sesión
        </Link>
      </div>
      <PrivacyNotice open={privacyOpen} onClose={() => setPrivacyOpen(false)} />
    </AuthShell>
  );
}
