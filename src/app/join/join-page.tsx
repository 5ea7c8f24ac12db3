// The join screen of an invitation (spec §2 Join, §4): shows the host's data; a signed-in user chooses
// the RFC to join with; a registered e-mail signs in first; a new user signs up (account and tax data,
// the register pieces) and lands home. Any bad, used or old link shows the §8 alert.
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import type { Invitation } from '../../domain/company';
import { MSG } from '../../domain/messages';
import { USERNAME_INPUT_MAX } from '../../domain/username';
import { getSession, hasSession, saveSession } from '../../offline/session';
import { ApiError } from '../../offline/http';
import { login } from '../api/endpoints';
import { useUsernameAvailability } from '../api/username-availability';
import { accountsQuery, errorMessage, problemOf, useApiQuery } from '../api/query';
import { QueryProblem } from '../ui/query-problem';
import { AuthShell } from '../layout/auth-shell';
import { LoginFields } from '../ui/login-fields';
import { PasswordField } from '../ui/password-field';
import { TaxDataPane, type TaxFieldRefs } from '../tax-data/tax-data-pane';
import { EMPTY_TAX_DRAFT, toNewClientBody, type TaxDraft } from '../tax-data/tax-draft';
import { Button } from '../ui/button';
import { Select, TextField } from '../ui/fields';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { UsernameHint } from '../ui/username-hint';
import { acceptInvitation, getInvitation, invitationKey, signUpWithInvitation } from './join-api';
import { addressLine } from '../tax-data/address-line';
import { checkJoinSignUp, hostName, joinStep, type SignUpField } from './join-model';
import './join.css';

const messageOf = (err: unknown) => errorMessage(err);
// 404 is the server's "unknown, used or old": the §8 text, whatever the body says.
const invitationProblem = (err: unknown) => (err instanceof ApiError && err.status !== 404 ? err.message : MSG.invalidPageToken);

function HostCard({ inv }: { inv: Invitation }) {
  const address = addressLine(inv.host.address);
  return (
    <section className="join-host" aria-labelledby="join-host-title">
      <h2 id="join-host-title">{hostName(inv.host)}</h2>
      <dl className="join-host__facts">
        <dt>RFC</dt>
        <dd>{inv.host.rfc}</dd>
        {address && (
          <>
            <dt>Domicilio</dt>
            <dd>{address}</dd>
          </>
        )}
        <dt>Invitación para</dt>
        <dd>{inv.email}</dd>
      </dl>
      <p className="muted join-host__note">
        Al aceptar, la empresa podrá ver tu perfil, tus datos fiscales y las facturas recibidas del RFC que elijas. Nunca tus contraseñas.
      </p>
    </section>
  );
}

function AcceptForm({ token, onDone }: { token: string; onDone: () => void }) {
  const accounts = useApiQuery(accountsQuery.key(getSession()?.user_id ?? null), accountsQuery.read);
  const [picked, setRfc] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = accounts.data ?? [];
  // With one RFC there is nothing to choose.
  const rfc = picked || (list.length === 1 ? list[0]!.rfc : '');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!rfc) return setError(MSG.joinRfcRequired);
    setBusy(true);
    setError(null);
    try {
      await acceptInvitation(token, rfc);
      toast.success(MSG.invitationAccepted);
      onDone();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }

  const problem = problemOf(accounts);
  if (problem) return <QueryProblem error={problem} message={messageOf(problem)} onRetry={() => void accounts.refetch()} />;
  if (!accounts.data) return <SkeletonCard label="Cargando tus RFC…" lines={2} />;
  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
      <Select
        label="RFC con el que te unes"
        name="rfc"
        value={rfc}
        onChange={(e) => setRfc(e.target.value)}
        options={list.map((a) => ({ value: a.rfc, label: a.name ? `${a.rfc} · ${a.name}` : `${a.rfc} · ${[a.first_name, a.last_name].filter(Boolean).join(' ')}` }))}
        placeholder="Elige un RFC"
        error={error}
      />
      <Button type="submit" variant="primary" block loading={busy}>
        Aceptar invitación
      </Button>
    </form>
  );
}

function SignInForm({ inv, onSignedIn, onSignUp }: { inv: Invitation; onSignedIn: () => void; onSignUp: () => void }) {
  const [userLogin, setUserLogin] = useState(inv.email);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const notes = useScreenToasts();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!userLogin.trim() || !password) {
      setError(MSG.loginEmpty);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await saveSession(await login(userLogin.trim(), password, false), false);
      notes.dismissAll();
      onSignedIn();
    } catch (err) {
      const message = messageOf(err);
      setError(message);
      notes.warning(message);
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p>Inicia sesión para aceptar la invitación.</p>
      <LoginFields userLogin={userLogin} onUserLogin={setUserLogin} password={password} onPassword={setPassword} error={error} />
      <Button type="submit" variant="primary" block loading={busy}>
        Iniciar sesión
      </Button>
      <p className="join-switch">
        <span className="muted">¿Aún no tienes cuenta?</span>{' '}
        <button type="button" className="link-button" onClick={onSignUp}>
          Crea tu cuenta
        </button>
      </p>
    </form>
  );
}

function SignUpForm({ token, inv, onDone, onSignIn }: { token: string; inv: Invitation; onDone: () => void; onSignIn: () => void }) {
  const [account, setAccount] = useState({ username: '', password: '', confirmation: '' });
  const [tax, setTax] = useState<TaxDraft>({ ...EMPTY_TAX_DRAFT, type: 'persona' });
  const [problem, setProblem] = useState<{ field: SignUpField | null; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const taxRefs = useRef<TaxFieldRefs>({});
  const accountRefs = useRef<Partial<Record<'username' | 'password' | 'confirmation', HTMLInputElement | null>>>({});
  const notes = useScreenToasts();
  // As in the sign-up wizard: the name as it will be saved, and a taken one said before the form is sent.
  const availability = useUsernameAvailability(account.username);
  const err = (f: SignUpField) => (problem?.field === f ? problem.message : null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const local = checkJoinSignUp(account, tax) ?? ((await availability.ensure()) === 'taken' ? { field: 'username' as const, message: MSG.usernameTaken } : null);
    if (local) {
      setProblem(local);
      notes.warning(local.message);
      const f = local.field;
      (f === 'username' || f === 'password' || f === 'confirmation' ? accountRefs.current[f] : taxRefs.current[f])?.focus();
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const session = await signUpWithInvitation(token, { username: account.username.trim(), password: account.password }, toNewClientBody(tax));
      await saveSession(session, false);
      notes.dismissAll();
      toast.success(MSG.invitationAccepted);
      onDone();
    } catch (error) {
      const message = messageOf(error);
      setProblem({ field: null, message });
      notes.warning(message);
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p>
        Crea tu cuenta con el correo <strong>{inv.email}</strong>: ahí recibirás tus facturas.
      </p>
      <TextField
        label="Usuario"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        inputRef={(el) => {
          accountRefs.current.username = el;
        }}
        value={account.username}
        onChange={(e) => setAccount({ ...account, username: e.target.value })}
        hint={<UsernameHint {...availability} />}
        error={err('username') ?? (availability.state === 'taken' ? MSG.usernameTaken : null)}
        maxLength={USERNAME_INPUT_MAX}
      />
      <PasswordField
        label="Contraseña"
        name="password"
        autoComplete="new-password"
        inputRef={(el) => {
          accountRefs.current.password = el;
        }}
        value={account.password}
        onChange={(e) => setAccount({ ...account, password: e.target.value })}
        error={err('password')}
        maxLength={128}
      />
      <PasswordField
        label="Confirma tu contraseña"
        name="confirmation"
        autoComplete="new-password"
        inputRef={(el) => {
          accountRefs.current.confirmation = el;
        }}
        value={account.confirmation}
        onChange={(e) => setAccount({ ...account, confirmation: e.target.value })}
        error={err('confirmation')}
        maxLength={128}
      />
      <h2 className="join-subtitle">Tus datos fiscales</h2>
      <TaxDataPane value={tax} onChange={setTax} error={problem?.field && problem.field !== 'username' && problem.field !== 'password' && problem.field !== 'confirmation' ? { field: problem.field, message: problem.message } : null} fieldRefs={taxRefs} />
      {problem && problem.field === null && (
        <div className="notice notice--warning" role="alert">
          <p>{problem.message}</p>
        </div>
      )}
      <Button type="submit" variant="primary" block loading={busy}>
        Crear cuenta y unirme
      </Button>
      <p className="join-switch">
        <span className="muted">¿Ya tienes cuenta?</span>{' '}
        <button type="button" className="link-button" onClick={onSignIn}>
          Inicia sesión
        </button>
      </p>
    </form>
  );
}

export function JoinPage() {
  const { token } = useSearch({ from: '/join' });
  const navigate = useNavigate();
  const invitation = useApiQuery(invitationKey(token), ({ signal }) => getInvitation(token ?? '', signal), { enabled: Boolean(token) });
  const [signedIn, setSignedIn] = useState(hasSession());
  const [prefer, setPrefer] = useState<'sign-in' | 'sign-up' | undefined>(undefined);

  const home = () => void navigate({ to: '/', replace: true });

  const problem = problemOf(invitation);
  if (token && !problem && !invitation.data) {
    return (
      <AuthShell title="Invitación">
        <SkeletonCard label="Cargando la invitación…" lines={4} />
      </AuthShell>
    );
  }
  if (!token || problem) {
    return (
      <AuthShell title="Invitación">
        <div className="stack">
          {problem ? (
            <QueryProblem error={problem} message={invitationProblem(problem)} onRetry={() => void invitation.refetch()} />
          ) : (
            <div className="notice notice--error" role="alert">
              <p>{MSG.invalidPageToken}</p>
            </div>
          )}
          <p className="join-switch">
            <Link to={getSession() ? '/' : '/login'}>{getSession() ? 'Ir al Dashboard' : 'Iniciar sesión'}</Link>
          </p>
        </div>
      </AuthShell>
    );
  }
  const inv = invitation.data;
  if (!inv) return null;
  const step = joinStep(inv, signedIn, prefer);
  return (
    <AuthShell title="Te invitaron a una empresa" lead={`${inv.company_name} quiere que compartas tus gastos con su equipo en Cuentas Claras.`} wide={step === 'sign-up'}>
      <div className="stack">
        <HostCard inv={inv} />
        {step === 'accept' && <AcceptForm token={token ?? ''} onDone={home} />}
        {step === 'sign-in' && <SignInForm inv={inv} onSignedIn={() => setSignedIn(true)} onSignUp={() => setPrefer('sign-up')} />}
        {step === 'sign-up' && <SignUpForm token={token ?? ''} inv={inv} onDone={home} onSignIn={() => setPrefer('sign-in')} />}
      </div>
    </AuthShell>
  );
}
