// Whether an RFC may receive a CFDI (spec §7 'Validate RFC'): its shape (src/domain/rfc.ts), its
// check digit (SAT's algorithm, @nodecfdi/rfc) and the local list of RFCs SAT publishes as not active.
import { Rfc } from '@nodecfdi/rfc';
import { eq } from 'drizzle-orm';
import { isValidRfc, normalizeRfc, RFC_FOREIGN, RFC_GENERIC } from '../../domain/rfc';
import type { Db } from '../db/client';
import { inactiveRfcs } from '../db/schema';

export type RfcCheck = 'ok' | 'invalid' | 'inactive';

/** Shape and check digit; the generic RFCs (público en general, extranjero) are valid as they are. */
export function rfcShapeAndDigitOk(raw: string): boolean {
  const rfc = normalizeRfc(raw);
  if (rfc === RFC_GENERIC || rfc === RFC_FOREIGN) return true;
  if (!isValidRfc(rfc)) return false;
  const parsed = Rfc.parseOrNull(rfc);
  return !!parsed && parsed.doesCheckSumMatch();
}

export async function checkRfcActive(db: Db, raw: string): Promise<RfcCheck> {
  const rfc = normalizeRfc(raw);
  if (!rfcShapeAndDigitOk(rfc)) return 'invalid';
  const [listed] = await db.select({ rfc: inactiveRfcs.rfc }).from(inactiveRfcs).where(eq(inactiveRfcs.rfc, rfc));
  return listed ? 'inactive' : 'ok';
}
