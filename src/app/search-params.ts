// The router's query strings, every value a string exactly as typed. TanStack's default turns '123' into
// the number 123 when reading and JSON-quotes a string that looks like JSON when writing ('0042' becomes
// '"0042"'); our links carry codes — tokens, references, folios, totals — that must stay as they are.
export function parseSearch(searchStr: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(searchStr.replace(/^\?/, '')));
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}
