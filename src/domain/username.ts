// Username rule (spec §5): letters, digits, dot and underscore; runs of dots or underscores collapse to
// one; lowercase; 4 to 25 characters. The one home of the rule: the wizard previews it as it is typed,
// the server applies it on create_user and on the availability check.
export const USERNAME_MIN = 4;
export const USERNAME_MAX = 25;
/** What the username field accepts as typed (spaces, accents…) before the rule shortens it. */
export const USERNAME_INPUT_MAX = 60;

/** Letters that Unicode does not decompose into a base letter plus an accent. */
const SPECIAL_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/**
 * Accents are transliterated, not dropped ('Gómez' → 'gomez', 'Peña' → 'pena'), and the spaces or hyphens
 * between words become one dot ('Lupita Gómez' → 'lupita.gomez'), so the saved name still reads like the typed one.
 */
export function normalizeUsername(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđðłþı]/g, (ch) => SPECIAL_LETTERS[ch] ?? '')
    .replace(/[\s-]+/g, '.')
    .replace(/[^a-z0-9._]/g, '')
    .replace(/_{2,}/g, '_')
    .replace(/\.{2,}/g, '.');
}

/** The rule's length check on an already normalised name: the spec's message, or null when it fits. */
export function usernameLengthProblem(username: string): 'short' | 'long' | null {
  if (username.length < USERNAME_MIN) return 'short';
  if (username.length > USERNAME_MAX) return 'long';
  return null;
}
