// Pieces of request schemas (valibot) that several areas' bodies share: optional text and optional ids.
import * as v from 'valibot';
import { numberOrNone } from '../../domain/validation';

/** Optional text: null / missing → '' (the domain check then says what is missing). */
export const text = (max: number, msg: string) =>
  v.optional(v.pipe(v.nullable(v.string(msg)), v.transform((s) => s ?? ''), v.maxLength(max, msg)), '');

/** An id or none: numbers, digit strings, '' / null (= none). */
export const idOrNone = (msg: string) =>
  v.pipe(numberOrNone(msg, { integer: true }), v.check((n) => n === null || (n > 0 && n <= 2_147_483_647), msg));

/** An id or nothing; missing is none too. */
export const optionalId = (msg: string) => v.optional(idOrNone(msg), null);
