// Per-address sliding window for public lookups (verify ticket, RFC check, OAuth, plans, chat…): enough for one server
// process; several processes would need a shared store.
export class IpLimiter {
  private readonly hits = new Map<string, number[]>();
  private sweeps = 0;
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** false when `ip` already made `limit` calls in the window. */
  take(ip: string, now: number): boolean {
    if (++this.sweeps % 1000 === 0) this.sweep(now);
    const recent = (this.hits.get(ip) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(ip, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(ip, recent);
    return true;
  }

  /** Seconds until the oldest call leaves the window. */
  retryAfter(ip: string, now: number): number {
    const oldest = this.hits.get(ip)?.[0];
    return oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  private sweep(now: number): void {
    for (const [ip, times] of this.hits) if (times.every((t) => now - t >= this.windowMs)) this.hits.delete(ip);
  }
}
