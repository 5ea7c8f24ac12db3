// Password strength (spec §5 and §2): score 0..4 from zxcvbn, 25% of the bar per point.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export const PASSWORD_SCORE_LABELS: Record<PasswordScore, string> = {
  0: 'Muy débil',
  1: 'Débil',
  2: 'Regular',
  3: 'Buena',
  4: 'Muy fuerte',
};

/** Width of the strength bar in percent: 25% per score point (score 0 shows an empty bar). */
export function strengthPercent(score: PasswordScore): number {
  return score * 25;
}

export function clampScore(n: number): PasswordScore {
  const s = Math.max(0, Math.min(4, Math.floor(n)));
  return s as PasswordScore;
}
