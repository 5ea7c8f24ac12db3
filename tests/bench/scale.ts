// The bench's sizes. Under `--smoke` (CI, after npm test) every section runs once with tiny sizes and few
// iterations, so a section that no longer runs is seen; its figures mean nothing and are not kept.
export const SMOKE = process.argv.includes('--smoke');

/** `full` in a real run, `smoke` under --smoke. */
export function sized<T>(full: T, smoke: T): T {
  return SMOKE ? smoke : full;
}
