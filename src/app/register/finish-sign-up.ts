// The end of signing up, once the account exists (spec §2 Register): sign in, create the account's client
// (or leave it for 'Agregar cuenta' when that fails), pull the accounts, and go back where the user came from.
import type { useNavigate } from '@tanstack/react-router';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { saveSession } from '../../offline/session';
import { login, newClient } from '../api/endpoints';
import { setPendingClient } from '../tax-data/pending-client';
import { toNewClientBody } from '../tax-data/tax-draft';
import { safeRedirect } from '../top-level';
import { toast } from '../ui/toast-store';
import { referringPage } from './referrer';
import type { RegisterForm } from './wizard';

type Navigate = ReturnType<typeof useNavigate>;

export async function finishSignUp(form: RegisterForm, username: string, redirect: string | undefined, navigate: Navigate): Promise<void> {
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
  const back = safeRedirect(redirect);
  if (back) {
    await navigate({ to: back, replace: true });
    return;
  }
  const ref = referringPage(document.referrer, window.location.href);
  if (ref) window.location.assign(ref);
  else await navigate({ to: '/', replace: true });
}
