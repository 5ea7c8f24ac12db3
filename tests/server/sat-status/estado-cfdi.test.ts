// The SAT status adapter against a local server speaking ConsultaCFDIService's SOAP (fake-sat.ts):
// each answer SAT can give, and each way it can fail — always a rejected promise, never a crash.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  consultaEnvelope, parseConsultaResponse, SatEstadoError, satEstadoCfdi, type CfdiStatusPort,
} from '../../../src/server/sat-status/estado-cfdi';
import {
  CANCELADO_RESPONSE, NO_ENCONTRADO_RESPONSE, REQUEST_SAMPLE, startFakeSat, VIGENTE_RESPONSE, type FakeSat,
} from './fake-sat';

const expression = (uuid: string) =>
  `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=${uuid}&re=EKU9003173C9&rr=XIQB891116QE4&tt=3450&fe=Vj4Ajg==`;
const UUID = {
  vigente: 'AAAAAAAA-0000-4000-8000-000000000001',
  cancelado: 'AAAAAAAA-0000-4000-8000-000000000002',
  unknown: 'AAAAAAAA-0000-4000-8000-000000000003',
  error: 'AAAAAAAA-0000-4000-8000-000000000004',
  hang: 'AAAAAAAA-0000-4000-8000-000000000005',
  malformed: 'AAAAAAAA-0000-4000-8000-000000000006',
  html: 'AAAAAAAA-0000-4000-8000-000000000007',
  huge: 'AAAAAAAA-0000-4000-8000-000000000008',
};

describe('SOAP request and response', () => {
  it('builds the envelope of the fixture request, expression XML-escaped', () => {
    const squash = (s: string) => s.replace(/>\s+</g, '><').trim();
    expect(squash(consultaEnvelope('?a=foo&b=bar'))).toBe(squash(REQUEST_SAMPLE));
    expect(consultaEnvelope('<x>"\'')).toContain('<c:expresionImpresa>&lt;x&gt;&quot;&apos;</c:expresionImpresa>');
  });

  it('reads the fixture answer: Vigente, cancellable with acceptance, request rejected, EFOS not given', () => {
    expect(parseConsultaResponse(VIGENTE_RESPONSE)).toEqual({
      state: 'Vigente', cancellable: 'Cancelable con aceptación', cancellationStatus: 'Solicitud rechazada', efos: 'unknown',
    });
  });

  it('reads Cancelado and No encontrado; EFOS 200 and 201 mean not listed, any other value listed', () => {
    expect(parseConsultaResponse(CANCELADO_RESPONSE)).toEqual({
      state: 'Cancelado', cancellable: 'Cancelable sin aceptación', cancellationStatus: 'Cancelado sin aceptación', efos: 'not-listed',
    });
    expect(parseConsultaResponse(NO_ENCONTRADO_RESPONSE)).toMatchObject({ state: 'No encontrado', cancellable: 'No cancelable', cancellationStatus: '' });
    const efos = (v: string) => parseConsultaResponse(VIGENTE_RESPONSE.replace('</ConsultaResult>', `<a:ValidacionEFOS>${v}</a:ValidacionEFOS></ConsultaResult>`)).efos;
    expect([efos('200'), efos('201'), efos('100')]).toEqual(['not-listed', 'not-listed', 'listed']);
  });

  it('an Estado of Vigente under an "N - " code is not trusted as found', () => {
    const odd = VIGENTE_RESPONSE.replace('S - Comprobante obtenido satisfactoriamente.', 'N - 601: La expresión impresa proporcionada no es válida.');
    expect(parseConsultaResponse(odd).state).toBe('No encontrado');
  });

  it('refuses junk with SatEstadoError: truncated XML, no ConsultaResult, a SOAP fault, a DTD', () => {
    const bad = [
      VIGENTE_RESPONSE.slice(0, 200),
      '<html><body>Mantenimiento</body></html>',
      'no es XML',
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultstring>Error</faultstring></s:Fault></s:Body></s:Envelope>',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>',
    ];
    for (const xml of bad) expect(() => parseConsultaResponse(xml), xml).toThrow(SatEstadoError);
  });
});

describe('adapter against the fake SAT', () => {
  let sat: FakeSat;
  let port: CfdiStatusPort;
  beforeAll(async () => {
    sat = await startFakeSat();
    sat.answer(UUID.vigente, 'vigente');
    sat.answer(UUID.cancelado, 'cancelado');
    sat.answer(UUID.error, 'http-500');
    sat.answer(UUID.hang, 'hang');
    sat.answer(UUID.malformed, 'malformed');
    sat.answer(UUID.html, 'no-result');
    sat.answer(UUID.huge, 'huge');
    port = satEstadoCfdi({ url: sat.url, timeoutMs: 300 });
  });
  afterAll(async () => sat?.stop());

  it('Vigente: the expression arrives intact through the SOAP envelope', async () => {
    expect(await port.check(expression(UUID.vigente))).toMatchObject({ state: 'Vigente' });
    expect(sat.expressions.at(-1)).toBe(expression(UUID.vigente));
  });

  it('Cancelado', async () => {
    expect(await port.check(expression(UUID.cancelado))).toEqual({
      state: 'Cancelado', cancellable: 'Cancelable sin aceptación', cancellationStatus: 'Cancelado sin aceptación', efos: 'not-listed',
    });
  });

  it('a CFDI SAT does not know is No encontrado', async () => {
    expect((await port.check(expression(UUID.unknown))).state).toBe('No encontrado');
  });

  it('HTTP 500, malformed XML, a non-SOAP page and an oversized answer reject with SatEstadoError', async () => {
    await expect(port.check(expression(UUID.error))).rejects.toThrow(/el SAT respondió 500/);
    await expect(port.check(expression(UUID.malformed))).rejects.toThrow(/respuesta del SAT ilegible/);
    await expect(port.check(expression(UUID.html))).rejects.toThrow(/sin ConsultaResult/);
    await expect(port.check(expression(UUID.huge))).rejects.toThrow(/demasiado grande/);
  });

  it('a server that never answers times out and rejects, and the default timeout is 10 s', async () => {
    const started = Date.now();
    await expect(port.check(expression(UUID.hang))).rejects.toThrow(/no respondió en 300 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    let signal: AbortSignal | undefined;
    const failing: typeof fetch = async (_url, init) => {
      signal = init?.signal ?? undefined;
      throw new TypeError('fetch failed');
    };
    await expect(satEstadoCfdi({ url: sat.url, fetch: failing }).check('x')).rejects.toThrow(/no se pudo consultar al SAT/);
    expect(timeout).toHaveBeenCalledWith(10_000);
    expect(signal).toBe(timeout.mock.results[0]?.value);
    timeout.mockRestore();
  });

  it('a closed port rejects with SatEstadoError', async () => {
    const dead = satEstadoCfdi({ url: 'http://127.0.0.1:9/ConsultaCFDIService.svc', timeoutMs: 1_000 });
    await expect(dead.check(expression(UUID.vigente))).rejects.toBeInstanceOf(SatEstadoError);
  });
});
