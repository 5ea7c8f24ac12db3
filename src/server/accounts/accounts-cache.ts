// GET /user_clients from memory when the database can tell us, synchronously, that a user's accounts
// changed (PGlite: the clients trigger's NOTIFY). Disabled until that feed is listening, so always on
// PostgreSQL: there NOTIFY arrives after the commit, and a process (this one or another behind the same
// load balancer) could answer from memory what was just changed; every process reads the table instead.
import type { Account } from '../../domain/account';

const MAX_USERS = 10_000;
export const CLIENTS_CHANGED = 'clients_changed';

export class AccountsCache {
  private readonly map = new Map<number, Account[]>();
  private enabled = false;
  /** Bumped by every change, so a read that raced a write is not stored. */
  private seq = 0;

  /** Starts caching once `listen` delivers clients_changed notifications. */
  async attach(listen: (channel: string, onPayload: (payload: string) => void) => Promise<void>): Promise<void> {
    await listen(CLIENTS_CHANGED, (payload) => {
      this.seq++;
      this.map.delete(Number(payload));
    });
    this.enabled = true;
  }

  get(userId: number): Account[] | undefined {
    return this.enabled ? this.map.get(userId) : undefined;
  }

  /** Call before reading from the database; pass the result to set(). */
  mark(): number {
    return this.seq;
  }

  set(userId: number, accounts: Account[], mark: number): void {
    if (!this.enabled || mark !== this.seq) return;
    if (this.map.size >= MAX_USERS) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    this.map.set(userId, accounts);
  }
}
