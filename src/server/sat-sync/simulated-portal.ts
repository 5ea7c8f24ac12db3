// The embedded simulated SAT portal (default SAT port): an account per RFC with its
// CIEC (hashed, table sat_portal_accounts), and every day's CFDI 4.0 of every RFC, made on demand and
// deterministic per (RFC, day): the same day always gives the same documents, hence the same UUIDs
// (the import pipeline dedupes a re-run), and each day gives new ones. They are real documents: built
// and sealed with SAT's public test CSDs (src/server/cfdi) and stamped by the sandbox PAC, which gives
// them a real TimbreFiscalDigital. Received ones come from the demo merchants (the composition root hands
// in the merchant catalog's; their CSD is SAT's test CSD of EKU9003173C9) and from ACCEM (AAA010101AAA); issued ones only for RFCs that have a test CSD.
// It also takes an e.firma for the RFC (a FIEL of that RFC, checked by inspectEfirma).
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { SatMethod } from '../../domain/sat-sync';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { IVA_16, type CfdiInput } from '../cfdi/build';
import { issueSandboxCfdi } from '../cfdi/issue';
import { openTestCsd, type TestCsdName } from '../cfdi/seal';
import type { Db } from '../db/client';
import { DEMO_RFCS } from '../db/demo-accounts';
import { satPortalAccounts } from '../db/schema';
import { mexicoCityMidnight } from '../../domain/mexico-time';
import { inspectEfirma, SatPortalError, type SatCollect, type SatCredentials, type SatDirection, type SatFile, type SatPortal } from './port';

/** The demo's portal accounts (README): CIEC per demo RFC. Worthless outside this simulation. */
export const DEMO_SAT_CIECS: Readonly<Record<string, string>> = {
  [DEMO_RFCS.persona.rfc]: 'XIQB2026',
  [DEMO_RFCS.empresa.rfc]: 'EKU92026',
};

/** CFDI per RFC per day (both directions together), by default. */
export const SIMULATED_PER_DAY = 4;

/** RFCs SAT's test CSDs can issue for (test-credentials). */
const CSD_OF: Readonly<Record<string, TestCsdName>> = {
  EKU9003173C9: 'EKU9003173C9',
  XIQB891116QE4: 'XIQB891116QE4',
  AAA010101AAA: 'CSD01_AAA010101AAA',
};

interface Party {
  rfc: string;
  nombre: string;
  regimen: string;
  cp: string;
  csd: TestCsdName;
}

const ACCEM: Party = { rfc: 'AAA010101AAA', nombre: 'ACCEM SERVICIOS EMPRESARIALES', regimen: '601', cp: '06000', csd: 'CSD01_AAA010101AAA' };
const KNOWN: Readonly<Record<string, Omit<Party, 'csd'>>> = {
  [DEMO_RFCS.persona.rfc]: { rfc: DEMO_RFCS.persona.rfc, nombre: 'BERENICE XIMO QUEZADA', regimen: DEMO_RFCS.persona.taxRegime, cp: DEMO_RFCS.persona.zipCode },
  [DEMO_RFCS.empresa.rfc]: { rfc: DEMO_RFCS.empresa.rfc, nombre: 'ESCUELA KEMPER URGATE', regimen: DEMO_RFCS.empresa.taxRegime, cp: DEMO_RFCS.empresa.zipCode },
  [ACCEM.rfc]: ACCEM,
};

/** Who the RFC is on its CFDI (the demo's data, else a plain taxpayer of its kind). */
function partyOf(rfc: string): Omit<Party, 'csd'> {
  return KNOWN[rfc] ?? { rfc, nombre: `CONTRIBUYENTE ${rfc}`, regimen: rfc.length === 13 ? '612' : '601', cp: '06000' };
}

/** A demo merchant as the Emisor of the CFDI it issues (merchants/catalog.ts, handed in by the composition root). */
export interface DemoIssuer {
  legalName: string;
  postalCode: string;
  taxRegime: string;
}

/** The issuers a day's received CFDI come from: the demo merchants and ACCEM, never the RFC itself. */
function issuersFor(rfc: string, demoMerchants: readonly DemoIssuer[]): Party[] {
  const merchants: Party[] = demoMerchants.map((m) => ({ rfc: 'EKU9003173C9', nombre: m.legalName, regimen: m.taxRegime, cp: m.postalCode, csd: 'EKU9003173C9' }));
  return [...merchants, ACCEM].filter((p) => p.rfc !== rfc);
}

/** The RFC a day's issued CFDI go to. */
function customerOf(rfc: string): Omit<Party, 'csd'> {
  return rfc === DEMO_RFCS.empresa.rfc ? partyOf(DEMO_RFCS.persona.rfc) : partyOf(DEMO_RFCS.empresa.rfc);
}

/** 32 deterministic bytes per (RFC, day, index) as a little random source. */
function dice(rfc: string, day: string, i: number): (n: number) => number {
  const h = createHash('sha256').update(`${rfc}|${day}|${i}`).digest();
  let at = 0;
  return (n) => {
    const x = h.readUInt32BE(at % 28);
    at += 4;
    return x % n;
  };
}

const ITEMS = [
  { clave: '90101501', unidad: 'E48', descripcion: 'Consumo de alimentos' },
  { clave: '15101514', unidad: 'LTR', descripcion: 'Gasolina magna' },
  { clave: '44121600', unidad: 'H87', descripcion: 'Artículos de papelería' },
  { clave: '90111800', unidad: 'E48', descripcion: 'Servicio de hospedaje' },
  { clave: '81112100', unidad: 'E48', descripcion: 'Servicio de internet' },
  { clave: '25172500', unidad: 'H87', descripcion: 'Refacciones automotrices' },
];

function dayParts(day: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new SatPortalError(`día inválido: ${day}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The i-th CFDI of the RFC's day and who seals it: pure. */
export function simulatedInput(rfc: string, day: string, i: number, demoMerchants: readonly DemoIssuer[]): { direction: SatDirection; input: CfdiInput; csd: TestCsdName } {
  const roll = dice(rfc, day, i);
  const [y, m, d] = dayParts(day);
  const fecha = new Date(mexicoCityMidnight(y, m, d).getTime() + (7 * 3600 + roll(14 * 3600)) * 1000);
  const item = ITEMS[roll(ITEMS.length)]!;
  const valorUnitario = (50 + roll(495_000) / 100).toFixed(2);
  const concepto = { claveProdServ: item.clave, cantidad: '1', claveUnidad: item.unidad, descripcion: item.descripcion, valorUnitario, objetoImp: '02' as const, traslados: [IVA_16] };
  const own = CSD_OF[rfc];
  const issued = own !== undefined && i % 4 === 3;
  const me = partyOf(rfc);
  const emisor = issued ? { ...me, csd: own } : issuersFor(rfc, demoMerchants)[roll(issuersFor(rfc, demoMerchants).length)]!;
  const receptor = issued ? customerOf(rfc) : me;
  return {
    direction: issued ? 'issued' : 'received',
    csd: emisor.csd,
    input: {
      serie: 'SAT',
      folio: `${day.replaceAll('-', '')}${String(i + 1).padStart(4, '0')}`,
      fecha,
      formaPago: roll(2) === 0 ? '04' : '03',
      metodoPago: 'PUE',
      tipoDeComprobante: 'I',
      lugarExpedicion: emisor.cp,
      emisor: { rfc: emisor.rfc, nombre: emisor.nombre, regimenFiscal: emisor.regimen },
      receptor: { rfc: receptor.rfc, nombre: receptor.nombre, domicilioFiscalReceptor: receptor.cp, regimenFiscalReceptor: receptor.regimen, usoCfdi: 'G03' },
      conceptos: [concepto],
    },
  };
}

export interface SimulatedPortalOptions {
  /** CFDI per RFC per day (both directions); the benchmark asks for 1,000. */
  perDay?: number;
  /** Fail every call (tests of the job's retries). */
  failing?: () => boolean;
}

/** Opens (or changes the CIEC of) a portal account. */
export async function openPortalAccount(db: Db, rfc: string, ciec: string): Promise<void> {
  const ciecHash = await hashPassword(ciec);
  await db.insert(satPortalAccounts).values({ rfc: rfc.toUpperCase(), ciecHash }).onConflictDoUpdate({ target: satPortalAccounts.rfc, set: { ciecHash } });
}

/** The demo RFCs' portal accounts, once (a changed CIEC is kept). */
export async function seedSatPortal(db: Db): Promise<void> {
  for (const [rfc, ciec] of Object.entries(DEMO_SAT_CIECS)) {
    const [row] = await db.select({ rfc: satPortalAccounts.rfc }).from(satPortalAccounts).where(eq(satPortalAccounts.rfc, rfc));
    if (!row) await openPortalAccount(db, rfc, ciec);
  }
}

const CACHE_DAYS = 8;

export class SimulatedSatPortal implements SatPortal {
  readonly name = 'simulado';
  readonly methods: readonly SatMethod[] = ['ciec', 'efirma'];
  private readonly perDay: number;
  /** Made days (sealing costs ~ms per CFDI), a few kept. */
  private readonly days = new Map<string, Promise<Record<SatDirection, SatFile[]>>>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
    private readonly demoMerchants: readonly DemoIssuer[],
    private readonly options: SimulatedPortalOptions = {},
  ) {
    this.perDay = options.perDay ?? SIMULATED_PER_DAY;
  }

  async authenticate(rfc: string, ciec: string): Promise<boolean> {
    this.maybeFail();
    const [row] = await this.db.select().from(satPortalAccounts).where(eq(satPortalAccounts.rfc, rfc.toUpperCase()));
    if (!row) return false;
    return verifyPassword(row.ciecHash, ciec);
  }

  async submit(cred: SatCredentials, day: string, direction: SatDirection): Promise<string> {
    this.maybeFail();
    if (cred.method === 'ciec') {
      if (!(await this.authenticate(cred.rfc, cred.ciec))) throw new SatPortalError('CIEC rechazada por el portal');
    } else {
      try {
        inspectEfirma(cred.rfc, cred.cer, cred.key, cred.password, this.clock());
      } catch (err) {
        throw new SatPortalError(`e.firma rechazada: ${(err as Error).message}`);
      }
    }
    dayParts(day);
    return `sim:${cred.rfc}:${day}:${direction}`;
  }

  async collect(cred: SatCredentials, requestId: string): Promise<SatCollect> {
    this.maybeFail();
    const [tag, rfc, day, direction] = requestId.split(':');
    if (tag !== 'sim' || rfc !== cred.rfc || !day || (direction !== 'issued' && direction !== 'received')) {
      throw new SatPortalError('solicitud desconocida');
    }
    return { state: 'ready', files: (await this.dayFiles(rfc, day))[direction] };
  }

  /** Makes (or recalls) the RFC's day: the benchmark calls it before timing. */
  dayFiles(rfc: string, day: string): Promise<Record<SatDirection, SatFile[]>> {
    const key = `${rfc}|${day}`;
    let made = this.days.get(key);
    if (!made) {
      made = this.make(rfc, day);
      made.catch(() => this.days.delete(key));
      if (this.days.size >= CACHE_DAYS) this.days.delete(this.days.keys().next().value!);
      this.days.set(key, made);
    }
    return made;
  }

  private async make(rfc: string, day: string): Promise<Record<SatDirection, SatFile[]>> {
    const out: Record<SatDirection, SatFile[]> = { issued: [], received: [] };
    for (let i = 0; i < this.perDay; i++) {
      const { direction, input, csd } = simulatedInput(rfc, day, i, this.demoMerchants);
      const at = new Date((input.fecha as Date).getTime() + 5_000);
      const cfdi = await issueSandboxCfdi(input, openTestCsd(csd), { at });
      out[direction].push({ name: `${cfdi.uuid}.xml`, kind: 'xml', bytes: new TextEncoder().encode(cfdi.xml) });
    }
    return out;
  }

  private maybeFail(): void {
    if (this.options.failing?.()) throw new SatPortalError('el portal del SAT no responde');
  }
}
