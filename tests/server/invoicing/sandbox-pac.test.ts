// The sandbox PAC answers a re-sent document with the stamp it gave it the first time (what keeps a job
// retried after a crash from making a second invoice), and different documents get different UUIDs.
import { describe, expect, it } from 'vitest';
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
