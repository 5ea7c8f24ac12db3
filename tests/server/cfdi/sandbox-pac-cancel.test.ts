// The sandbox PAC's cancellations answer as SAT does: at once when no acceptance is needed, 'en
// proceso' for 72 hours when the receptor must accept, refusals with SAT's codes, and never twice.
// The file ledger keeps it all across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IVA_16, type CfdiInput } from '../../../src/server/cfdi/build';
import { PacError } from '../../../src/server/cfdi/pac';
import { SandboxPac } from '../../../src/server/cfdi/sandbox-pac';
import { fileLedger } from '../../../src/server/cfdi/sandbox-ledger';
import { openTestCsd, sealCfdi } from '../../../src/server/cfdi/seal';
import { diskFileStore } from '../../../src/server/files/file-store';
import { sampleInput } from './sat-tools';

const csd = openTestCsd('EKU9003173C9');
const EMISOR = 'EKU9003173C9';
const HOUR = 3_600_000;
/** Fecha 2026-05-01T12:00:00 in Hidalgo (42501) is 18:00 UTC; stamped 5 s later. */
const STAMPED = new Date('2026-05-01T18:00:05Z');

/** A sandbox with a clock the test moves. */
function sandbox(start = new Date(STAMPED.getTime() + 60_000), ledger?: ReturnType<typeof fileLedger>) {
  const clock = { now: start };
  const pac = new SandboxPac({ now: () => clock.now, ledger });
  return { pac, clock, later: (ms: number) => void (clock.now = new Date(clock.now.getTime() + ms)) };
}

const big: Partial<CfdiInput> = {
  conceptos: [{ claveProdServ: '50202306', cantidad: '1', claveUnidad: 'H87', descripcion: 'Equipo', valorUnitario: '2000.00', objetoImp: '02', traslados: [IVA_16] }],
};

async function stamp(pac: SandboxPac, over: Partial<CfdiInput> = {}) {
  return pac.stamp(sealCfdi(sampleInput({ folio: `F${Math.random().toString(36).slice(2, 8)}`, ...over }), csd).xml);
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PacError);
  return (err as PacError).code;
}

describe('sandbox PAC: cancelling', () => {
  it('up to $1,000: cancelable sin aceptación, cancelled at once; asking again answers 202 with the same state', async () => {
    const { pac, later } = sandbox();
    const { uuid } = await stamp(pac);
    later(30 * HOUR); // past the 24-hour window: the amount alone makes it cancelable sin aceptación
    const first = await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02', total: '99.99', rfcReceptor: 'XIQB891116QE4' });
    expect(first).toMatchObject({ uuid, state: 'cancelada', cancelable: 'Cancelable sin aceptación', satStatus: 'Cancelado sin aceptación', code: '201', motive: '02', replacement: null, deadline: null });
    const again = await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' });
    expect(again).toEqual({ ...first, code: '202' });
    expect(await pac.cancellationStatus(uuid)).toEqual({ ...first, code: '202' });
  });

  it('over $1,000 after 24 hours: en proceso for 72 hours, then plazo vencido; the receptor may accept or refuse before', async () => {
    const { pac, later } = sandbox();
    const a = await stamp(pac, big);
    const b = await stamp(pac, big);
    const c = await stamp(pac, big);
    expect(await pac.cancellationStatus(a.uuid)).toBeNull();
    later(25 * HOUR);
    const pending = await pac.cancel({ uuid: a.uuid, rfcEmisor: EMISOR, motive: '03' });
    expect(pending).toMatchObject({ state: 'en_proceso', cancelable: 'Cancelable con aceptación', satStatus: 'En proceso', code: '201' });
    expect(new Date(pending.deadline!).getTime() - new Date(pending.requestedAt).getTime()).toBe(72 * HOUR);
    // Asked again while waiting: the same request, not a second one.
    expect(await pac.cancel({ uuid: a.uuid, rfcEmisor: EMISOR, motive: '03' })).toEqual(pending);
    await pac.cancel({ uuid: b.uuid, rfcEmisor: EMISOR, motive: '03' });
    await pac.cancel({ uuid: c.uuid, rfcEmisor: EMISOR, motive: '03' });
    expect(await pac.answerCancellation(b.uuid, true)).toMatchObject({ state: 'cancelada', satStatus: 'Cancelado con aceptación' });
    expect(await pac.answerCancellation(c.uuid, false)).toMatchObject({ state: 'rechazada', satStatus: 'Solicitud rechazada' });
    later(72 * HOUR);
    expect(await pac.cancellationStatus(a.uuid)).toMatchObject({ state: 'cancelada', satStatus: 'Plazo vencido', code: '202' });
    expect(await pac.cancellationStatus(c.uuid)).toMatchObject({ state: 'rechazada' });
    // Refused once, the emisor may ask again.
    expect(await pac.cancel({ uuid: c.uuid, rfcEmisor: EMISOR, motive: '03' })).toMatchObject({ state: 'en_proceso' });
  });

  it('over $1,000 but within 24 hours of its stamp, or to público en general / a foreign resident, or an egreso: sin aceptación', async () => {
    const { pac, later } = sandbox();
    const fresh = await stamp(pac, big);
    expect(await pac.cancel({ uuid: fresh.uuid, rfcEmisor: EMISOR, motive: '02' })).toMatchObject({ state: 'cancelada', cancelable: 'Cancelable sin aceptación' });
    const publico = await stamp(pac, {
      ...big,
      receptor: { rfc: 'XAXX010101000', nombre: 'PUBLICO EN GENERAL', domicilioFiscalReceptor: '42501', regimenFiscalReceptor: '616', usoCfdi: 'S01' },
      informacionGlobal: { periodicidad: '01', meses: '05', anio: 2026 },
    });
    const foreign = await stamp(pac, {
      ...big,
      receptor: { rfc: 'XEXX010101000', nombre: 'ACME INC', domicilioFiscalReceptor: '42501', regimenFiscalReceptor: '616', usoCfdi: 'S01', residenciaFiscal: 'USA', numRegIdTrib: '123456789' },
    });
    const egreso = await stamp(pac, { ...big, tipoDeComprobante: 'E' });
    later(30 * HOUR);
    for (const uuid of [publico.uuid, foreign.uuid, egreso.uuid]) {
      expect(await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).toMatchObject({ state: 'cancelada', cancelable: 'Cancelable sin aceptación' });
    }
  });

  it('motive 01 needs a FolioSustitucion: another UUID, of a CFDI that relates this one as its substitute (04)', async () => {
    const { pac } = sandbox();
    const old = await stamp(pac);
    const unrelated = await stamp(pac);
    const cancel = (replacement?: string, motive: '01' | '02' = '01') => pac.cancel({ uuid: old.uuid, rfcEmisor: EMISOR, motive, replacement });
    expect(await refusal(cancel())).toBe('208');
    expect(await refusal(cancel(old.uuid))).toBe('208');
    expect(await refusal(cancel('no-es-un-uuid'))).toBe('208');
    expect(await refusal(cancel('00000000-0000-0000-0000-000000000000'))).toBe('208');
    expect(await refusal(cancel('6F1E2B3C-0000-4000-8000-000000000001'))).toBe('208'); // not stamped here
    expect(await refusal(cancel(unrelated.uuid))).toBe('212');
    expect(await refusal(cancel(unrelated.uuid, '02'))).toBe('209');
    expect(await refusal(pac.cancel({ uuid: old.uuid, rfcEmisor: EMISOR, motive: '05' as '01' }))).toBe('207');
    const replacement = await stamp(pac, { cfdiRelacionados: [{ tipoRelacion: '04', uuids: [old.uuid] }] });
    expect(await cancel(replacement.uuid.toLowerCase())).toMatchObject({ state: 'cancelada', motive: '01', replacement: replacement.uuid });
    expect(await pac.cancellationStatus(old.uuid)).toMatchObject({ state: 'cancelada', replacement: replacement.uuid });
  });

  it('unknown UUID → 205, another emisor → 203, a wrong total → 205; nothing is cancelled', async () => {
    const { pac } = sandbox();
    const { uuid } = await stamp(pac);
    expect(await refusal(pac.cancel({ uuid: '6F1E2B3C-0000-4000-8000-000000000001', rfcEmisor: EMISOR, motive: '02' }))).toBe('205');
    expect(await refusal(pac.cancellationStatus('6F1E2B3C-0000-4000-8000-000000000001'))).toBe('205');
    expect(await refusal(pac.cancel({ uuid, rfcEmisor: 'XIQB891116QE4', motive: '02' }))).toBe('203');
    expect(await refusal(pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02', total: '100.00' }))).toBe('205');
    expect(await pac.cancellationStatus(uuid)).toBeNull();
  });

  it('no cancelable (204) while a vigente CFDI relates it (a credit note); cancelable once that one is cancelled', async () => {
    const { pac } = sandbox();
    const invoice = await stamp(pac);
    const note = await stamp(pac, { tipoDeComprobante: 'E', cfdiRelacionados: [{ tipoRelacion: '01', uuids: [invoice.uuid] }] });
    expect(await refusal(pac.cancel({ uuid: invoice.uuid, rfcEmisor: EMISOR, motive: '02' }))).toBe('204');
    await pac.cancel({ uuid: note.uuid, rfcEmisor: EMISOR, motive: '02' });
    expect(await pac.cancel({ uuid: invoice.uuid, rfcEmisor: EMISOR, motive: '02' })).toMatchObject({ state: 'cancelada' });
  });

  it('deadlines: after the annual return\'s month (March for a persona moral) → 210; a global invoice outside its month → 211', async () => {
    const late = sandbox(new Date('2027-04-02T18:00:00Z'));
    const stampedBefore = await late.pac.stampAt(sealCfdi(sampleInput({ folio: 'D1' }), csd).xml, STAMPED);
    expect(await refusal(late.pac.cancel({ uuid: stampedBefore.uuid, rfcEmisor: EMISOR, motive: '02' }))).toBe('210');
    const { pac, later } = sandbox();
    const global = await stamp(pac, {
      receptor: { rfc: 'XAXX010101000', nombre: 'PUBLICO EN GENERAL', domicilioFiscalReceptor: '42501', regimenFiscalReceptor: '616', usoCfdi: 'S01' },
      informacionGlobal: { periodicidad: '04', meses: '05', anio: 2026 },
    });
    later(31 * 24 * HOUR);
    expect(await refusal(pac.cancel({ uuid: global.uuid, rfcEmisor: EMISOR, motive: '02' }))).toBe('211');
  });

  describe('file ledger', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-ledger-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a restarted sandbox still knows what it stamped and where each cancellation stands', async () => {
      const files = diskFileStore(dir);
      const first = sandbox(undefined, fileLedger(files));
      const { uuid } = await stamp(first.pac, big);
      first.later(25 * HOUR);
      expect(await first.pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '03' })).toMatchObject({ state: 'en_proceso' });
      const restarted = sandbox(first.clock.now, fileLedger(diskFileStore(dir)));
      expect(await restarted.pac.cancellationStatus(uuid)).toMatchObject({ state: 'en_proceso' });
      restarted.later(73 * HOUR);
      expect(await restarted.pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '03' })).toMatchObject({ state: 'cancelada', satStatus: 'Plazo vencido', code: '202' });
    });
  });
});
