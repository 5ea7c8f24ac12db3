// Username rule (spec §5): letters, digits, dot and underscore; runs of dots or
// underscores collapse to one; lowercase; 4 to 25 characters.
export const USERNAME_MIN = 4;
export const USERNAME_MAX = 25;

export function normalizeUsername(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9._]/g, '')
    .replace(/_{2,}/g, '_')
    .replace(/\.{2,}/g, '.');
}
