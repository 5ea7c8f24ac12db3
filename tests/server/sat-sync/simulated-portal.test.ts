// The simulated SAT portal's CFDI: real CFDI 4.0 (sealed with SAT's test CSD, stamped by the sandbox PAC),
// the same documents for the same RFC and day (so a re-run dedupes), new ones every day; issued ones only
// for RFCs with a test CSD. And the e.firma checks' last rule: an expired FIEL is refused.
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { readCfdi } from '../../../src/server/cfdi/read';
import { checkCfdiSello } from '../../../src/server/cfdi/seal';
import type { Db } from '../../../src/server/db/client';
import { inspectEfirma, type SatFile } from '../../../src/server/sat-sync/port';
import { SimulatedSatPortal } from '../../../src/server/sat-sync/simulated-portal';
import { demoMerchants } from '../../../src/server/wiring';
import { EFIRMA, FIEL_PASSWORD, PERSONA } from './helpers';

const portal = (perDay?: number) => new SimulatedSatPortal({} as Db, () => new Date('2026-11-20T15:00:00Z'), demoMerchants, { perDay });
const read = (f: SatFile) => {
  const r = readCfdi(f.bytes);
  if (!r.ok) throw new Error(r.reason);
  return r.cfdi;
};
const uuids = (files: { issued: SatFile[]; received: SatFile[] }) => [...files.issued, ...files.received].map((f) => read(f).uuid);

describe('simulated SAT portal', () => {
  it('gives the same stamped CFDI 4.0 for the same RFC and day, and new ones the next day', async () => {
    const a = await portal().dayFiles(PERSONA, '2026-11-19');
    const again = await portal().dayFiles(PERSONA, '2026-11-19');
    const next = await portal().dayFiles(PERSONA, '2026-11-20');
    expect(uuids(again)).toEqual(uuids(a));
    expect(new Set(uuids(a)).size).toBe(uuids(a).length);
    expect(uuids(next).filter((u) => uuids(a).includes(u))).toEqual([]);
    for (const f of a.received) {
      const cfdi = read(f);
      expect(cfdi.version).toBe('4.0');
      expect(cfdi.receiver.rfc).toBe(PERSONA);
      expect(cfdi.issuer.rfc).not.toBe(PERSONA);
      expect(cfdi.fecha.startsWith('2026-11-19')).toBe(true);
      expect(checkCfdiSello(new TextDecoder().decode(f.bytes)).ok).toBe(true);
    }
    expect(a.issued.length).toBeGreaterThan(0);
    for (const f of a.issued) expect(read(f).issuer.rfc).toBe(PERSONA);
  });

  it('makes as many per day as asked, and only received ones for an RFC without a test CSD', async () => {
    const many = await portal(12).dayFiles(PERSONA, '2026-11-19');
    expect(many.issued.length + many.received.length).toBe(12);
    const stranger = await portal().dayFiles('GODE561231GR8', '2026-11-19');
    expect(stranger.issued).toEqual([]);
    expect(stranger.received.length).toBeGreaterThan(0);
  });

  it('answers only the request it was given, for the RFC of the credentials', async () => {
    const p = portal();
    const cred = { method: 'efirma' as const, rfc: PERSONA, cer: EFIRMA.persona.cer, key: EFIRMA.persona.key, password: FIEL_PASSWORD };
    const id = await p.submit(cred, '2026-11-19', 'received');
    const got = await p.collect(cred, id);
    expect(got.state).toBe('ready');
    await expect(p.collect({ ...cred, rfc: 'GODE561231GR8' }, id)).rejects.toThrow();
    await expect(p.submit({ ...cred, password: 'otra' }, '2026-11-19', 'received')).rejects.toThrow();
  });

  it('refuses an expired e.firma', () => {
    expect(() => inspectEfirma(PERSONA, EFIRMA.persona.cer, EFIRMA.persona.key, FIEL_PASSWORD, new Date('2060-01-01T00:00:00Z'))).toThrow(MSG.efirmaExpired);
    expect(inspectEfirma(PERSONA, EFIRMA.persona.cer, EFIRMA.persona.key, FIEL_PASSWORD, new Date()).serial).toBe('30001000000900000001');
  });
});
