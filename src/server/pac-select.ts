// Which PAC stamps and cancels invoices: PAC=finkok selects Finkok's services (config.ts readPacEnv);
// anything else the embedded sandbox PAC. Each keeps what it needs in the files store, so a restarted
// server can still cancel what it stamped before. Finkok's cancellation signs with the issuer's CSD,
// found here by the emisor's RFC among the merchants that hold one.
import { and, eq, isNotNull } from 'drizzle-orm';
import { processEnv, readPacEnv } from './config';
import { fileFinkokLedger } from './cfdi/finkok-ledger';
import { FinkokPac } from './cfdi/finkok-pac';
import type { PacPort } from './cfdi/pac';
import { fileLedger } from './cfdi/sandbox-ledger';
import { SandboxPac } from './cfdi/sandbox-pac';
import type { Csd } from './cfdi/seal';
import type { Db } from './db/client';
import { companies } from './db/schema';
import type { FileStore } from './files/file-store';
import { merchantSide } from './wiring';

export function pacFromEnv(db: Db, files: FileStore, env: NodeJS.ProcessEnv = processEnv()): PacPort {
  const cfg = readPacEnv(env);
  if (cfg.pac !== 'finkok' || !cfg.finkok) return new SandboxPac({ ledger: fileLedger(files) });
  return new FinkokPac({ ...cfg.finkok, ledger: fileFinkokLedger(files), csdOf: (rfc) => issuerCsd(db, rfc) });
}

/** The CSD of the merchant with that RFC (the lowest id when several share it, as the demo's do). */
async function issuerCsd(db: Db, rfc: string): Promise<Csd> {
  const [row] = await db.select({ id: companies.id }).from(companies)
    .where(and(eq(companies.rfc, rfc), eq(companies.kind, 'merchant'), isNotNull(companies.csdCer)))
    .orderBy(companies.id).limit(1);
  if (!row) throw new Error(`no merchant with RFC ${rfc} holds a CSD`);
  return merchantSide.csdOf(db, row.id);
}
