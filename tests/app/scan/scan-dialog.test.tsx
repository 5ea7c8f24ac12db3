// The scan dialog's screens for each state (static render, like the other app tests): viewfinder with a
// live status line, the camera error with its alternative, the CFDI card states.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { ScanBody, ScanFooter, SCAN_TXT } from '../../../src/app/scan/scan-dialog';
import { CfdiCardView, CFDI_TXT, lookupParams, type CfdiLookup } from '../../../src/app/scan/cfdi-card';
import { scanOutcome } from '../../../src/app/scan/scan-model';

const noop = () => undefined;

describe('scan dialog', () => {
  it('shows the viewfinder, the hint and a polite live status while scanning', () => {
    const html = renderToStaticMarkup(<ScanBody state={{ step: 'starting' }} onDone={noop} />);
    expect(html).toContain('<video');
    expect(html).toContain(`aria-label="${SCAN_TXT.viewfinder}"`);
    expect(html).toContain(SCAN_TXT.hint);
    expect(html).toMatch(/role="status" aria-live="polite">Encendiendo la cámara…/);
    const notice = renderToStaticMarkup(<ScanBody state={{ step: 'scanning', notice: MSG.qrNotRecognized }} onDone={noop} />);
    expect(notice).toContain(MSG.qrNotRecognized);
  });

  it('a camera error is an alert with the way out: type the data, try again or cancel', () => {
    const state = { step: 'camera-error' as const, message: MSG.cameraUnavailable };
    const html = renderToStaticMarkup(<ScanBody state={state} onDone={noop} />);
    expect(html).toContain(`role="alert">${MSG.cameraUnavailable}`);
    expect(html).not.toContain('<video');
    const foot = renderToStaticMarkup(<ScanFooter state={state} onCancel={noop} onRetry={noop} onTypeInstead={noop} />);
    expect(foot.match(/<button/g)).toHaveLength(3);
    for (const label of [SCAN_TXT.typeInstead, SCAN_TXT.retry, SCAN_TXT.cancel]) expect(foot).toContain(label);
    const scanning = renderToStaticMarkup(<ScanFooter state={{ step: 'scanning' }} onCancel={noop} onRetry={noop} />);
    expect(scanning.match(/<button/g)).toHaveLength(1);
    expect(scanning).toContain(SCAN_TXT.cancel);
  });
});

describe('CFDI card', () => {
  const cfdi: CfdiLookup = {
    uuid: '5FB2822E-396D-4725-8521-CDC4BDD20CCF', rfc_issuer: 'EKU9003173C9', name_issuer: 'Cafetería de Prueba', rfc_receiver: 'XAXX010101000',
    total: '1234.5', emission_date: '2026-11-20T13:45:00', state: 'importable', ticket_id: null,
  };
  const render = (state: Parameters<typeof CfdiCardView>[0]['state'], importFiles: (() => void) | null = noop) =>
    renderToStaticMarkup(<CfdiCardView state={state} busy={false} onImport={noop} onRetry={noop} onImportFiles={importFiles} />);

  it('asks the lookup with the QR parameters', () => {
    const out = scanOutcome(`https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=${cfdi.uuid.toLowerCase()}&re=EKU9003173C9&rr=XAXX010101000&tt=1234.500000&fe=Ld8qOA==`);
    if (out.kind !== 'cfdi') throw new Error('expected a CFDI');
    expect(lookupParams(out.qr)).toEqual({ id: cfdi.uuid, re: 'EKU9003173C9', rr: 'XAXX010101000', tt: '1234.500000' });
  });

  it('shows issuer, total, date and UUID, and offers the import', () => {
    const html = render({ kind: 'found', cfdi });
    for (const s of ['Cafetería de Prueba', 'EKU9003173C9', '$1,234.50', '2026-11-20', cfdi.uuid, CFDI_TXT.importable]) expect(html).toContain(s);
  });

  it('an invoice already in the account says so instead of offering the import', () => {
    const html = render({ kind: 'found', cfdi: { ...cfdi, state: 'imported', ticket_id: 't1' } });
    expect(html).toContain(CFDI_TXT.imported);
    expect(html).not.toContain(CFDI_TXT.importable);
  });

  it('an unknown invoice offers importing its files; loading and errors are announced', () => {
    expect(render({ kind: 'unknown' })).toContain(CFDI_TXT.importFiles);
    expect(render({ kind: 'unknown' }, null)).not.toContain(CFDI_TXT.importFiles);
    expect(render({ kind: 'loading' })).toContain(`role="status">${CFDI_TXT.loading}`);
    const err = render({ kind: 'error', message: MSG.generic });
    expect(err).toContain(`role="alert">${MSG.generic}`);
    expect(err).toContain(CFDI_TXT.retry);
  });
});
