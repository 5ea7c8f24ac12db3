// Which SAT portal the server talks to: SAT_PORTAL=descarga-masiva selects SAT's bulk-download web
// service (SAT_WS_URL overrides its base URL, for a local fake); anything else, the simulated portal.
import type { Clock } from '../context';
import type { Db } from '../db/client';
import { processEnv, readSatPortalEnv } from '../config';
import { DescargaMasivaPortal } from './descarga-masiva';
import type { SatPortal } from './port';
import { SimulatedSatPortal, type DemoIssuer } from './simulated-portal';

/** `demoMerchants`: the simulated portal's issuers (the composition root's, from the merchant catalog). */
export function portalFromEnv(db: Db, clock: Clock, demoMerchants: readonly DemoIssuer[], env: NodeJS.ProcessEnv = processEnv()): SatPortal {
  const cfg = readSatPortalEnv(env);
  if (cfg.portal === 'descarga-masiva') return new DescargaMasivaPortal({ baseUrl: cfg.wsUrl, clock });
  return new SimulatedSatPortal(db, clock, demoMerchants);
}
