// The register wizard's parts (spec §2 Register): the step list, the fields of each step, the confirmation
// summary and the Atrás/Siguiente bar. The page (register-page.tsx) holds the state and the checks.
import { accountDisplayName } from '../../domain/account';
import { countryName } from '../../domain/countries';
import { normalizeEmail } from '../../domain/email';
import { MSG } from '../../domain/messages';
import { PASSWORD_MAX, PASSWORD_SCORE_LABELS, strengthPercent, type PasswordScore } from '../../domain/password';
import { regimeName } from '../../domain/invoicing';
import { normalizeUsername, USERNAME_INPUT_MAX } from '../../domain/username';
import { useState, type FocusEvent } from 'react';
import { effectiveRfc } from '../tax-data/tax-draft';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import { PasswordField } from '../ui/password-field';
import type { UsernameState } from '../api/username-availability';
import { UsernameHint } from '../ui/username-hint';
import { STEPS, type FieldName, type RegisterForm, type StepId } from './wizard';

/** What the summary says of an optional field left empty: it can be filled in later, before invoicing. */
const NOT_GIVEN = 'Sin capturar (puedes agregarlo después)';

const TYPE_LABEL = { empresa: 'Empresa (persona moral)', persona: 'Persona física', extranjero: 'Extranjero' } as const;

/** How a step's fields reach the page: the values, a change, each field's message and its ref. */
export interface StepFields {
  form: RegisterForm;
  set: (change: Partial<RegisterForm>) => void;
  err: (field: FieldName) => string | null;
  reg: (field: FieldName) => (el: HTMLInputElement | null) => void;
}

/** 'Pasos del registro': done, current and coming steps. */
export function StepList({ step, current }: { step: StepId; current: number }) {
  return (
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
  );
}

/** The meter under the password: zxcvbn's score, or 'Sin calcular' while there is none. */
function PasswordStrength({ score }: { score: PasswordScore | null }) {
  return (
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
  );
}

/** A confirmation's on-blur hint: shown when it is left holding something else than the first field. */
function useBlurMismatch() {
  const [mismatch, setMismatch] = useState(false);
  return {
    mismatch,
    clear: () => setMismatch(false),
    onBlur: (e: FocusEvent<HTMLInputElement>, differs: boolean) => {
      // Leaving for a button (e.g. 'Siguiente'): that click checks anyway, and showing the
      // message now would shift the button away from under the pointer and lose the click.
      if (e.relatedTarget instanceof HTMLButtonElement) return;
      setMismatch(differs);
    },
  };
}

/** Step 1: user name (shown as it will be saved, and whether it is free), password with its meter, and the confirmation. */
export function AccountStep({ form, set, err, reg, score, availability }: StepFields & {
  score: PasswordScore | null;
  availability: { username: string; state: UsernameState };
}) {
  const blur = useBlurMismatch();
  return (
    <>
      <TextField
        label="Nombre de usuario"
        value={form.username}
        onChange={(e) => set({ username: e.target.value })}
        hint={<UsernameHint {...availability} />}
        maxLength={USERNAME_INPUT_MAX}
        autoComplete="username"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        error={err('username') ?? (availability.state === 'taken' ? MSG.usernameTaken : null)}
        inputRef={reg('username')}
      />
      <div className="stack" style={{ gap: 8 }}>
        <PasswordField
          label="Contraseña"
          value={form.password}
          onChange={(e) => set({ password: e.target.value })}
          maxLength={PASSWORD_MAX}
          autoComplete="new-password"
          error={err('password')}
          inputRef={reg('password')}
        />
        <PasswordStrength score={score} />
      </div>
      <PasswordField
        label="Confirma tu contraseña"
        value={form.passwordConfirmation}
        onChange={(e) => {
          set({ passwordConfirmation: e.target.value });
          blur.clear();
        }}
        onBlur={(e) => blur.onBlur(e, !!form.passwordConfirmation && form.passwordConfirmation !== form.password)}
        maxLength={PASSWORD_MAX}
        autoComplete="new-password"
        error={err('passwordConfirmation') ?? (blur.mismatch ? MSG.passwordsDifferBlur : null)}
        inputRef={reg('passwordConfirmation')}
      />
    </>
  );
}

/** Step 2: the e-mail twice (the confirmation hints on leaving it, like the passwords'), and the privacy notice's link. */
export function EmailStep({ form, set, err, reg, onPrivacy }: StepFields & { onPrivacy: () => void }) {
  const blur = useBlurMismatch();
  return (
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
        inputRef={reg('email')}
      />
      <TextField
        label="Confirma tu correo"
        type="email"
        value={form.emailConfirmation}
        onChange={(e) => {
          set({ emailConfirmation: e.target.value });
          blur.clear();
        }}
        onBlur={(e) => blur.onBlur(e, !!form.emailConfirmation.trim() && normalizeEmail(form.emailConfirmation) !== normalizeEmail(form.email))}
        autoComplete="email"
        inputMode="email"
        maxLength={254}
        error={err('emailConfirmation') ?? (blur.mismatch ? MSG.emailsDifferBlur : null)}
        inputRef={reg('emailConfirmation')}
      />
      <p className="muted" style={{ margin: 0 }}>
        Al registrarte aceptas nuestro{' '}
        <button type="button" className="link-button" onClick={onPrivacy}>
          aviso de privacidad
        </button>
        .
      </p>
    </>
  );
}

/** Step 4: what the account will be, as the user will see it. */
export function ConfirmSummary({ form }: { form: RegisterForm }) {
  const tax = form.tax;
  return (
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
      {tax.type !== 'extranjero' && (
        <>
          <dt>Código postal</dt>
          <dd className="tabular">{tax.postalCode.trim() || NOT_GIVEN}</dd>
          <dt>Régimen fiscal</dt>
          <dd>{tax.taxRegime ? [tax.taxRegime, regimeName(tax.taxRegime)].filter(Boolean).join(' · ') : NOT_GIVEN}</dd>
        </>
      )}
      <dt>País</dt>
      <dd>{tax.type === 'extranjero' ? (countryName(tax.country) ?? tax.country) : 'México'}</dd>
    </dl>
  );
}

/** 'Atrás' (from the second step on) and 'Siguiente', or 'Crear cuenta' on the last step. */
export function WizardNav({ current, last, busy, canCreate, onBack }: { current: number; last: boolean; busy: boolean; canCreate: boolean; onBack: () => void }) {
  return (
    <div className="wizard-nav">
      {current > 0 ? (
        <Button onClick={onBack} disabled={busy}>
          Atrás
        </Button>
      ) : (
        <span />
      )}
      {last ? (
        <Button type="submit" variant="primary" disabled={!canCreate} loading={busy}>
          Crear cuenta
        </Button>
      ) : (
        <Button type="submit" variant="primary">
          Siguiente
        </Button>
      )}
    </div>
  );
}
