// Password strength, one rule for the sign-up meter and the server (spec §5): zxcvbn's score 0..4
// with the dictionaries below, and a new password scoring under MIN_PASSWORD_SCORE is refused.
// zxcvbn is loaded on first use only (dynamic imports), so no screen that never scores a password
// carries it. The full language-common + language-es-es packs weigh ≈ 600 KB gzip (passwords,
// commonWords, wikipedia), which alone would break the all-JS budget (tests/bench/bundle-size.ts), so
// we load the small parts of both packs — keyboard graphs, Spanish names, number/word sequences,
// translations — plus a short list of the passwords people here use most. The server scores with the
// very same set, so it refuses exactly what the meter shows as weak.
import { MSG } from './messages';
import { clampScore, type PasswordScore } from './password';

export type Scorer = (password: string, userInputs: string[]) => PasswordScore;

/** 'Regular' or better: 0 ('Muy débil') and 1 ('Débil') are refused. */
export const MIN_PASSWORD_SCORE = 2;

/** Very common passwords (Spanish and global) that the packs we skip would have caught. */
const COMMON_PASSWORDS = [
  '123456', '12345678', '123456789', '1234567890', '111111', '000000', '123123', '654321', '112233', '121212',
  'password', 'password1', 'qwerty', 'qwerty123', 'abc123', 'iloveyou', 'admin', 'welcome', 'letmein', 'monkey',
  'contraseña', 'contrasena', 'teamo', 'tequiero', 'mexico', 'méxico', 'america', 'chivas', 'pumas', 'cruzazul',
  'futbol', 'princesa', 'mariposa', 'estrella', 'corazon', 'amor', 'familia', 'dios', 'jesus', 'guadalupe',
  'hola', 'holahola', 'secreto', 'cuentasclaras', 'factura', 'facturas', 'sat', 'rfc',
];

let loading: Promise<Scorer> | null = null;

export function loadStrengthScorer(): Promise<Scorer> {
  loading ??= (async () => {
    const [{ ZxcvbnFactory }, graphs, firstnames, lastnames, sequences, translations] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common/dist/adjacencyGraphs.json.mjs'),
      import('@zxcvbn-ts/language-es-es/dist/firstnames.json.mjs'),
      import('@zxcvbn-ts/language-es-es/dist/lastnames.json.mjs'),
      import('@zxcvbn-ts/language-es-es/dist/wordSequences.json.mjs'),
      import('@zxcvbn-ts/language-es-es/dist/translations.mjs'),
    ]);
    const zxcvbn = new ZxcvbnFactory({
      translations: translations.default,
      graphs: graphs.default,
      dictionary: {
        'passwords-mx': COMMON_PASSWORDS,
        'firstnames-es-es': firstnames.default,
        'lastnames-es-es': lastnames.default,
        ...sequences.default,
      },
      useLevenshteinDistance: true,
    });
    return (password, userInputs) => clampScore(zxcvbn.check(password, userInputs.filter(Boolean)).score);
  })();
  loading.catch(() => {
    loading = null; // offline on first use: try again next time
  });
  return loading;
}

export function isWeakScore(score: PasswordScore): boolean {
  return score < MIN_PASSWORD_SCORE;
}

/** MSG.passwordWeak when zxcvbn scores the password under the minimum; `userInputs` are the username and e-mail. */
export async function weakPasswordProblem(password: string, userInputs: string[]): Promise<string | null> {
  const scoreOf = await loadStrengthScorer();
  return isWeakScore(scoreOf(password, userInputs)) ? MSG.passwordWeak : null;
}
