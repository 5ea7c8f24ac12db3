// Test set-up for gates that need a proved RFC (company invitations, import by UUID): records the proof
// the way a SAT connection would, without going through the portal every time.
import { eq } from 'drizzle-orm';
import type { RfcVerifiedBy } from '../../../src/domain/rfc-verification';
import type { Db } from '../../../src/server/db/client';
import { clients } from '../../../src/server/db/schema';

export async function markRfcVerifiedForTest(db: Db, clientId: number, by: RfcVerifiedBy = 'sat'): Promise<void> {
  await db.update(clients).set({ rfcVerifiedAt: new Date(), rfcVerifiedBy: by }).where(eq(clients.id, clientId));
}
