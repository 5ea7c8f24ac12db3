// What a log line may say about a caught error. A failed query's message quotes the SQL and every
// parameter (drizzle: "Failed query: … params: …"), a driver's message can quote a value ('invalid input
// syntax for type integer: "…"'), and a mail server's can quote an address: user data, secrets even.
// So a log gets the error's class, its code (SQLSTATE or Node's), the database object it concerns and
// where it was thrown — never a message, never parameters.

const SAFE_WORD = /^[A-Za-z0-9_.$-]{1,63}$/;
const MAX_FRAMES = 8;

function field(err: object, key: string): string | undefined {
  const value = (err as Record<string, unknown>)[key];
  return typeof value === 'string' && SAFE_WORD.test(value) ? value : undefined;
}

function className(err: Error): string {
  const ctor = err.constructor?.name;
  return ctor && SAFE_WORD.test(ctor) ? ctor : 'Error';
}

/** The stack's frames without its head: the head repeats the message, so it is dropped, or nothing is kept. */
function frames(err: Error): string[] {
  const stack = typeof err.stack === 'string' ? err.stack : '';
  const head = `${err.name}: ${err.message}`;
  const rest = stack.startsWith(head) ? stack.slice(head.length) : stack.startsWith(err.name + '\n') ? stack.slice(err.name.length) : '';
  return rest
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES)
    .map((line) => line.trim());
}

/** One line about the error (and its cause), safe to log. */
export function errorSummary(err: unknown): string {
  if (!(err instanceof Error)) return `(${typeof err})`;
  const parts = [className(err)];
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const source = [err, ...(cause ? [cause] : [])];
  if (cause) parts.push(`causa ${className(cause)}`);
  for (const key of ['code', 'constraint', 'table', 'column', 'routine']) {
    const value = source.map((e) => field(e, key)).find(Boolean);
    if (value) parts.push(`${key}=${value}`);
  }
  const at = frames(err);
  return at.length ? `${parts.join(' ')} | ${at.join(' | ')}` : parts.join(' ');
}

/** Whether the error, or one of its causes, is a failed query or a database's own error (whose text quotes values). */
export function isDatabaseError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++, e = e.cause) {
    const x = e as Error & { query?: unknown; params?: unknown; severity?: unknown; code?: unknown };
    if (typeof x.query === 'string' && Array.isArray(x.params)) return true;
    if (typeof x.severity === 'string' && typeof x.code === 'string' && /^[0-9A-Z]{5}$/.test(x.code)) return true;
    if (/Drizzle|DatabaseError|PostgresError/.test(x.constructor?.name ?? '')) return true;
  }
  return false;
}
