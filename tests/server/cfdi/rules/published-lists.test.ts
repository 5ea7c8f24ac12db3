// The rules judged with published data the caller hands in (CFDI40118 TipoCambio against the day's
// rate, CFDI40138 / CFDI40143 RFCs on SAT's cancelled list): the limits are c_Moneda's variation,
// exactly; a Confirmacion, an unknown rate or no lists at all give no finding; the generic RFCs are
// never looked up; the same findings come from a whole document and from an import's facts.
import { describe, expect, it } from 'vitest';
import { checkCfdi40, listFactsOfXml, listFindings, mergeFindings, type ListFacts, type PublishedLists } from '../../../../src/server/cfdi/rules';
import { fixture, mutate } from './mutate';

const USD = fixture('cfdi40-ingreso-usd-tipocambio-unstamped.xml'); // Fecha 2023-06-18, USD, TipoCambio 18.9008
const NOW = new Date('2023-06-19T02:00:00Z');
const rateOf = (rate: string): PublishedLists => ({ rate: (c, d) => (c === 'USD' && d === '2023-06-18' ? rate : undefined) });
const codesOf = (xml: string, lists?: PublishedLists) => checkCfdi40(xml, { now: NOW, lists }).map((f) => f.code);
const withTipoCambio = (tc: string, extra: Record<string, string> = {}) => mutate(USD, (d) => d.set(d.root, { TipoCambio: tc, ...extra }));

const FACTS: ListFacts = { fecha: '2023-06-18T19:20:21', moneda: 'USD', tipoCambio: '18.9008', confirmacion: '', emisorRfc: 'EKU9003173C9', receptorRfc: 'COSC8001137NA' };

describe('CFDI40118: TipoCambio within c_Moneda\'s variation of the published rate', () => {
  it('5 % either side of the rate is within; one ten-thousandth beyond is not', () => {
    const lists = rateOf('18.500000');
    expect(codesOf(withTipoCambio('19.4250'), lists)).not.toContain('CFDI40118'); // 18.5 × 1.05
    expect(codesOf(withTipoCambio('17.5750'), lists)).not.toContain('CFDI40118'); // 18.5 × 0.95
    expect(codesOf(withTipoCambio('19.4251'), lists)).toContain('CFDI40118');
    expect(codesOf(withTipoCambio('17.5749'), lists)).toContain('CFDI40118');
  });

  it('explains the finding with the rate it was judged against', () => {
    const [f] = checkCfdi40(withTipoCambio('25.0000'), { now: NOW, lists: rateOf('18.500000') }).filter((x) => x.code === 'CFDI40118');
    expect(f!.message).toBe('El TipoCambio (25.0000) se aparta más del 5 % del tipo de cambio publicado para USD (18.500000) y el CFDI no trae clave de Confirmación del PAC.');
  });

  it('a Confirmacion, an unknown rate or no lists: no finding', () => {
    expect(codesOf(withTipoCambio('25.0000', { Confirmacion: 'ECVH1' }), rateOf('18.500000'))).not.toContain('CFDI40118');
    expect(codesOf(withTipoCambio('25.0000'), { rate: () => undefined })).not.toContain('CFDI40118');
    expect(codesOf(withTipoCambio('25.0000'))).not.toContain('CFDI40118');
  });

  it('MXN and XXX are never looked up', () => {
    const asked: string[] = [];
    const lists: PublishedLists = { rate: (c) => { asked.push(c); return '1'; } };
    expect(listFindings({ ...FACTS, moneda: 'MXN', tipoCambio: '1' }, lists)).toEqual([]);
    expect(listFindings({ ...FACTS, moneda: 'XXX', tipoCambio: '' }, lists)).toEqual([]);
    expect(asked).toEqual([]);
  });
});

describe('CFDI40138 / CFDI40143: RFCs on SAT\'s list of cancelled RFCs', () => {
  const cancelled = (...rfcs: string[]): PublishedLists => ({ cancelledRfc: (r) => rfcs.includes(r) });

  it('an emisor on the list is CFDI40138, a receptor CFDI40143; others pass', () => {
    expect(codesOf(USD, cancelled('EKU9003173C9'))).toEqual(['CFDI40138']);
    expect(codesOf(USD, cancelled('COSC8001137NA'))).toEqual(['CFDI40143']);
    expect(codesOf(USD, cancelled('AAA010101AAA'))).toEqual([]);
    const [f] = checkCfdi40(USD, { now: NOW, lists: cancelled('COSC8001137NA') });
    expect(f!.message).toBe('El RFC del receptor (COSC8001137NA) está en la lista de RFC cancelados que publica el SAT: no está inscrito como activo.');
  });

  it('the generic RFCs and values that are not RFCs are never looked up', () => {
    const asked: string[] = [];
    const lists: PublishedLists = { cancelledRfc: (r) => { asked.push(r); return true; } };
    expect(listFindings({ ...FACTS, receptorRfc: 'XAXX010101000' }, lists).map((f) => f.code)).toEqual(['CFDI40138']);
    expect(listFindings({ ...FACTS, emisorRfc: 'X'.repeat(5000), receptorRfc: "EKU' OR 1=1" }, lists)).toEqual([]);
    expect(asked).toEqual(['EKU9003173C9']);
  });
});

describe('one judgement for a document and for an import\'s facts', () => {
  it('listFactsOfXml reads what listFindings needs; both ways agree', () => {
    const xml = withTipoCambio('25.0000');
    const facts = listFactsOfXml(xml);
    expect(facts).toEqual({ ...FACTS, tipoCambio: '25.0000' });
    const lists: PublishedLists = { ...rateOf('18.500000'), cancelledRfc: (r) => r === 'EKU9003173C9' };
    const fromDoc = checkCfdi40(xml, { now: NOW, lists }).filter((f) => ['CFDI40118', 'CFDI40138'].includes(f.code));
    expect(listFindings(facts!, lists)).toEqual(fromDoc);
    expect(listFactsOfXml('<no-es-cfdi/>')).toBeNull();
    expect(listFactsOfXml('not xml at all <')).toBeNull();
  });

  it('mergeFindings keeps a code once (the first explanation) and code order', () => {
    const merged = mergeFindings(
      [{ code: 'CFDI40143', message: 'forma' }, { code: 'CFDI40161', message: 'uso' }],
      [{ code: 'CFDI40118', message: 'tc' }, { code: 'CFDI40143', message: 'cancelado' }],
    );
    expect(merged).toEqual([{ code: 'CFDI40118', message: 'tc' }, { code: 'CFDI40143', message: 'forma' }, { code: 'CFDI40161', message: 'uso' }]);
  });
});
