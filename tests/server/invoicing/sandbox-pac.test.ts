// The sandbox PAC answers a re-sent document with the stamp it gave it the first time (what keeps a job
// retried after a crash from making a second invoice), and different documents get different UUIDs.
import { describe, expect, it } from 'vitest';
import { PacError } from '../../../src/server/cfdi/pac';
import { SandboxPac } from '../../../src/server/cfdi/sandbox-pac';
import { checkTimbre, openTestCsd, sealCfdi } from '../../../src/server/cfdi/seal';
import { sampleInput } from '../cfdi/sat-tools';

describe('sandbox PAC determinism', () => {
  const csd = openTestCsd('EKU9003173C9');

  it('same sealed XML → same UUID, FechaTimbrado and XML, even from another process\'s sandbox and later', async () => {
    const sealed = sealCfdi(sampleInput(), csd).xml;
    const a = await new SandboxPac({ now: () => new Date('2026-05-01T18:00:10Z') }).stamp(sealed);
    const b = await new SandboxPac({ now: () => new Date('2026-05-01T19:30:00Z') }).stamp(sealed);
    expect(b).toEqual(a);
    expect(a.fechaTimbrado).toBe('2026-05-01T12:00:05');
    expect(checkTimbre(a.xml, new SandboxPac().certificate).ok).toBe(true);
  });

  it('another document (another Folio) gets another UUID', async () => {
    const pac = new SandboxPac({ now: () => new Date('2026-05-01T18:00:10Z') });
    const a = await pac.stamp(sealCfdi(sampleInput(), csd).xml);
    const b = await pac.stamp(sealCfdi(sampleInput({ folio: '124' }), csd).xml);
    expect(b.uuid).not.toBe(a.uuid);
    expect(b.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
  });

  it('refuses a Fecha more than 5 minutes after its clock', async () => {
    const pac = new SandboxPac({ now: () => new Date('2026-05-01T17:50:00Z') }); // 11:50 in Mexico City
    await expect(pac.stamp(sealCfdi(sampleInput(), csd).xml)).rejects.toThrow(/401/);
  });
});

describe('sandbox PAC applies SAT\'s CFDI 4.0 rules, answering with their codes', () => {
  const csd = openTestCsd('EKU9003173C9');
  const pac = new SandboxPac({ now: () => new Date('2026-05-01T18:00:10Z') });
  const berenice = { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', domicilioFiscalReceptor: '88965' };

  it('régimen 601 (personas morales) for a persona física: refused with CFDI40158, nothing stamped', async () => {
    const sealed = sealCfdi(sampleInput({ folio: 'R1', receptor: { ...berenice, regimenFiscalReceptor: '601', usoCfdi: 'G03' } }), csd).xml;
    const err = await pac.stamp(sealed).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(PacError);
    expect((err as PacError).code).toBe('CFDI40158');
    expect((err as PacError).message).toMatch(/RegimenFiscalR/);
  });

  it('605 (sueldos y salarios) + D01 (honorarios médicos), as SAT\'s c_UsoCFDI allows: stamped', async () => {
    const sealed = sealCfdi(sampleInput({ folio: 'R2', receptor: { ...berenice, regimenFiscalReceptor: '605', usoCfdi: 'D01' } }), csd).xml;
    expect((await pac.stamp(sealed)).uuid).toMatch(/^[0-9A-F-]{36}$/);
  });

  it('a Fecha in Quintana Roo\'s time (UTC-5), an hour ahead of Mexico City\'s: stamped, FechaTimbrado in Mexico City time', async () => {
    // 12:00 in Cancún is 17:00 UTC, 11:00 in Mexico City.
    const at = new SandboxPac({ now: () => new Date('2026-05-01T17:00:30Z') });
    const stamped = await at.stamp(sealCfdi(sampleInput({ folio: 'R3', lugarExpedicion: '77500' }), csd).xml);
    expect(stamped.fechaTimbrado).toBe('2026-05-01T11:00:05');
  });
});
