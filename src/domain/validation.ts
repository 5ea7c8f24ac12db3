// Validating a payload with a valibot schema so that only Spanish can come out. Most schemas carry their
// own messages (the spec's texts); any check that has none (a missing key, a wrong type deep inside)
// would otherwise answer with valibot's English ("Invalid key: Expected …"). Those issues get a
// marker while parsing and, once the whole path is known, a Spanish message naming the field.
import * as v from 'valibot';
import { MSG } from './messages';
import { fieldPathText } from './text-input';

/** Set on issues that had no message of their own; a NUL can never be in a real message. */
const NO_MESSAGE = '\u0000sin-mensaje';

type AnyIssue = v.BaseIssue<unknown>;

function pathOf(issue: AnyIssue): string {
  const keys: (string | number)[] = [];
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    if (typeof key === 'string' || typeof key === 'number') keys.push(key);
  }
  return fieldPathText(keys);
}

/** The Spanish message of an issue: the schema's own, else one that names the field. */
export function issueMessage(issue: AnyIssue): string {
  if (issue.message !== NO_MESSAGE) return issue.message;
  const field = pathOf(issue);
  if (!field) return MSG.badJson;
  if (issue.input === undefined) return MSG.fieldMissing.replace('{campo}', field);
  return MSG.fieldInvalid.replace('{campo}', field);
}

export type Validated<T> = { success: true; output: T } | { success: false; message: string };

/** Parses with the schema; on failure, the first issue's Spanish message. */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): Validated<v.InferOutput<S>> {
  const r = v.safeParse(schema, input, { message: NO_MESSAGE });
  if (r.success) return { success: true, output: r.output };
  const first = r.issues[0];
  return { success: false, message: first ? issueMessage(first) : MSG.badJson };
}

/**
 * A number that may be absent, as clients send it: a JSON number or a numeric string, and `''`, `null`
 * or a missing key all meaning "none" (→ null). Legacy clients send `latitude: ''` for "no location".
 * `integer` also refuses fractions. Without `message`, a bad value gets the field-naming message.
 */
export function numberOrNone(message?: string, opts: { integer?: boolean } = {}) {
  const fits = opts.integer ? Number.isSafeInteger : Number.isFinite;
  return v.pipe(
    v.nullable(v.union([v.number(message), v.string(message)], message)),
    v.transform((x): number | null => (x === null || (typeof x === 'string' && x.trim() === '') ? null : Number(x))),
    v.check((n) => n === null || fits(n), message),
  );
}

/** numberOrNone with a missing key also read as null. */
export const optionalNumber = (message?: string, opts: { integer?: boolean } = {}) => v.optional(numberOrNone(message, opts), null);
