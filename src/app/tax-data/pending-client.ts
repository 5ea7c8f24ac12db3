// When sign-up created the user but new_client failed, the typed tax data and the error are
// carried to the add-client screen, so nothing is lost (the user is already signed in).
import type { TaxDraft } from './tax-draft';

export interface PendingClient {
  draft: TaxDraft;
  error: string;
}

let pending: PendingClient | null = null;

export function setPendingClient(p: PendingClient | null): void {
  pending = p;
}

/** Read once: the screen takes it and it is gone. */
export function takePendingClient(): PendingClient | null {
  const p = pending;
  pending = null;
  return p;
}
