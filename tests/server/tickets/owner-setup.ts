// The setup every ticket API test file shares: one harness per driver block and a signed-in owner with one
// persona tax account (ticket-fixtures.ts's ownerWithRfc), made once before the block's tests and closed
// after them. A file keeps `h` and `a` as its own variables: `ready` hands them over and may add more setup.
import { afterAll, beforeAll } from 'vitest';
import { createHarness, type DriverName, type Harness } from '../helpers/harness';
import { ownerWithRfc, type Owner } from './ticket-fixtures';

export interface OwnerSetup {
  h: Harness;
  a: Owner;
}

/** Registers the block's beforeAll (harness on `driver`, then its owner) and afterAll (closes the harness). */
export function harnessWithOwner(driver: DriverName, ready: (setup: OwnerSetup) => unknown): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness(driver);
    await ready({ h, a: await ownerWithRfc(h) });
  });
  afterAll(async () => h?.close());
}
