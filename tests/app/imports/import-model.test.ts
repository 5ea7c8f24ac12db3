import { describe, expect, it } from 'vitest';
import {
  formatSize, importPlaces, importReducer, importTotals, initialImportState, monthHref, parseFileEvent, placeText, rowView, supportsDrop,
  type FileEvent, type ImportRow, type ImportState, type OpState,
} from '../../../src/app/imports/import-model';
import { MSG } from '../../../src/domain/messages';

function row(over: Partial<ImportRow>): ImportRow {
  return { key: over.name ?? 'k', name: 'a.xml', size: 2048, localError: null, opId: 'op1', index: 0, serverId: null, ...over };
}

function ev(over: Partial<FileEvent>): FileEvent {
  return { id: 'u1', name: 'a.xml', status: 'recibido', reason: null, parent_id: null, ticket_ids: [], ...over };
}

function added(rows: ImportRow[]): ImportState {
  return importReducer(initialImportState, { type: 'added', rows });
}

const views = (s: ImportState, ops = new Map<string, OpState>(), online = true) =>
  s.rows.map((r) => rowView(r, s, ops.get(r.opId ?? ''), online));

describe('progress before the server knows the file', () => {
  it('queued, waiting for a connection, sending, refused as a whole, then processing once acknowledged', () => {
    const s = added([row({})]);
    const op = (status: OpState['status'], lastError: string | null = null) => new Map([['op1', { status, lastError }]]);
    expect(views(s, op('pending'))[0]).toMatchObject({ label: 'En cola', finished: false });
    expect(views(s, op('pending'), false)[0]).toMatchObject({ label: 'En espera de conexión', finished: false });
    expect(views(s, op('inflight'))[0]).toMatchObject({ label: 'Enviando', finished: false });
    expect(views(s, op('failed', MSG.importTooMany))[0]).toMatchObject({ tone: 'danger', reason: MSG.importTooMany, finished: true });
    expect(views(s)[0]).toMatchObject({ label: 'Procesando', finished: false });
  });

  it('a file refused on the phone is listed with its message and never sent', () => {
    const s = added([row({ name: 'foto.png', localError: MSG.importFileType, opId: null })]);
    expect(views(s)[0]).toMatchObject({ tone: 'danger', reason: 'Tipo de archivo no soportado', finished: true, imported: 0 });
  });

  it('a drop of more than 100 files only shows the notice', () => {
    const s = importReducer(initialImportState, { type: 'too-many', message: MSG.importTooMany });
    expect(s).toEqual({ rows: [], events: {}, notice: 'Demasiados archivos simultáneos' });
    expect(importReducer(s, { type: 'added', rows: [] }).notice).toBeNull();
  });
});

describe('statuses from the answer and the stream', () => {
  it("learns the server's ids from the answer, by place, only for its own batch", () => {
    let s = added([row({ name: 'b.xml', index: 1 }), row({ name: 'a.xml', index: 0 }), row({ name: 'c.xml', opId: 'op2' })]);
    // An answer that does not list the whole batch is not trusted.
    expect(importReducer(s, { type: 'ack', opId: 'op1', files: [{ id: 'u1', name: 'a.xml', status: 'recibido' }] })).toBe(s);
    s = importReducer(s, { type: 'ack', opId: 'op1', files: [{ id: 'u1', name: 'a.xml', status: 'recibido' }, { id: 'u2', name: 'b.xml', status: 'rechazado', reason: 'No es un CFDI' }] });
    expect(s.rows.map((r) => r.serverId)).toEqual(['u2', 'u1', null]);
    expect(views(s).map((v) => [v.label, v.reason])).toEqual([['Rechazado', 'No es un CFDI'], ['Procesando', null], ['Procesando', null]]);
  });

  it('an event that came before the answer is kept (it is newer)', () => {
    let s = added([row({})]);
    s = importReducer(s, { type: 'event', event: ev({ status: 'importado', ticket_ids: ['t1'] }) });
    s = importReducer(s, { type: 'ack', opId: 'op1', files: [{ id: 'u1', name: 'a.xml', status: 'recibido' }] });
    expect(views(s)[0]).toMatchObject({ label: 'Importado', tone: 'success', finished: true, imported: 1 });
  });

  it('summarises a zip by its entries and finishes only when they all did', () => {
    let s = added([row({ name: 'sat.zip', serverId: 'z' })]);
    for (const e of [
      ev({ id: 'z', name: 'sat.zip', status: 'importado' }),
      ev({ id: 'e1', name: 'x/1.xml', status: 'importado', parent_id: 'z' }),
      ev({ id: 'e2', name: 'x/2.xml', status: 'importado', parent_id: 'z' }),
      ev({ id: 'e3', name: '3.xml', status: 'duplicado', parent_id: 'z' }),
      ev({ id: 'e4', name: '4.xml', status: 'procesando', parent_id: 'z' }),
      ev({ id: 'other', name: 'ajeno.xml', status: 'importado' }),
    ]) s = importReducer(s, { type: 'event', event: e });
    expect(views(s)[0]).toMatchObject({ finished: false, summary: '2 importados, 1 duplicado, 0 rechazados', imported: 2 });
    s = importReducer(s, { type: 'event', event: ev({ id: 'e4', name: '4.xml', status: 'rechazado', reason: 'El XML no es un CFDI', parent_id: 'z' }) });
    const v = views(s)[0]!;
    expect(v).toMatchObject({ finished: true, summary: '2 importados, 1 duplicado, 1 rechazado' });
    expect(v.entries.map((e) => [e.name, e.label, e.reason])).toEqual([
      ['x/1.xml', 'Importado', null], ['x/2.xml', 'Importado', null], ['3.xml', 'Duplicado', null], ['4.xml', 'Rechazado', 'El XML no es un CFDI'],
    ]);
  });

  it('totals: finished when every row is, counting what became tickets', () => {
    let s = added([row({ name: 'a.xml', serverId: 'u1' }), row({ name: 'b.xml', serverId: 'u2' }), row({ name: 'c.png', localError: MSG.importFileType, opId: null })]);
    s = importReducer(s, { type: 'event', event: ev({ id: 'u1', status: 'importado' }) });
    expect(importTotals(views(s))).toEqual({ finished: false, imported: 1 });
    s = importReducer(s, { type: 'event', event: ev({ id: 'u2', name: 'b.xml', status: 'duplicado' }) });
    expect(importTotals(views(s))).toEqual({ finished: true, imported: 1 });
    // "Quitar terminados" keeps only what is still on its way.
    const more = importReducer(s, { type: 'added', rows: [row({ name: 'd.xml', opId: 'op9' })] });
    const cleared = importReducer(more, { type: 'clear-finished', ops: new Map([['op9', { status: 'pending', lastError: null }]]) });
    expect(cleared.rows.map((r) => r.name)).toEqual(['d.xml']);
  });
});

describe('parseFileEvent', () => {
  it('reads the stream\'s JSON (numeric ids too) and rejects anything else', () => {
    expect(parseFileEvent('{"id":12,"name":"a.xml","status":"importado","reason":null,"parent_id":3,"ticket_ids":["t1",7]}'))
      .toEqual({ id: '12', name: 'a.xml', status: 'importado', reason: null, parent_id: '3', ticket_ids: ['t1', '7'] });
    expect(parseFileEvent('{"id":"u","status":"rechazado","reason":"Archivo demasiado grande"}'))
      .toEqual({ id: 'u', name: '', status: 'rechazado', reason: 'Archivo demasiado grande', parent_id: null, ticket_ids: [] });
    expect(parseFileEvent('no json')).toBeNull();
    expect(parseFileEvent('{"name":"sin id","status":"x"}')).toBeNull();
  });
});

describe('helpers', () => {
  it('formats sizes in KB and MB', () => {
    expect(formatSize(2 * 1024 * 1024)).toBe('2 MB');
    expect(formatSize(1536 * 1024)).toBe('1.5 MB');
    expect(formatSize(830 * 1024)).toBe('830 KB');
    expect(formatSize(10)).toBe('1 KB');
  });

  it('tells whether the browser can take dropped files', () => {
    const doc = (el: object) => ({ createElement: () => el });
    expect(supportsDrop({ DataTransfer: function DataTransfer() {}, document: doc({ draggable: false }) })).toBe(true);
    expect(supportsDrop({ document: doc({ draggable: false }) })).toBe(false);
    expect(supportsDrop({ DataTransfer: function DataTransfer() {}, document: doc({}) })).toBe(false);
  });
});

describe('where the imported CFDI went', () => {
  const places = (events: FileEvent[], rows: ImportRow[]) => {
    let s = added(rows);
    for (const event of events) s = importReducer(s, { type: 'event', event });
    return importPlaces(s, 'XIQB891116QE4');
  };

  it('reads well-formed places from the stream and drops the rest', () => {
    const e = parseFileEvent(JSON.stringify({
      id: 'u1', status: 'importado', placed: [
        { rfc: 'XIQB891116QE4', month: '2025-03', count: 3 },
        { rfc: 'x<script>', month: '2025-03', count: 1 },
        { rfc: 'XIQB891116QE4', month: '2025-13', count: 1 },
        { rfc: 'XIQB891116QE4', month: '2025-04', count: -2 },
        'basura',
      ],
    }));
    expect(e?.placed).toEqual([{ rfc: 'XIQB891116QE4', month: '2025-03', count: 3 }]);
    expect(parseFileEvent(JSON.stringify({ id: 'u1', status: 'importado' }))?.placed).toBeUndefined();
  });

  it('names each month in running Spanish, sums files, and puts another account after the own one', () => {
    const rows = [row({ key: 'a', serverId: 'u1' }), row({ key: 'b', index: 1, serverId: 'u2' }), row({ key: 'c', index: 2, serverId: 'u3' })];
    const got = places([
      ev({ id: 'u1', status: 'importado', placed: [{ rfc: 'XIQB891116QE4', month: '2025-03', count: 2 }] }),
      ev({ id: 'u2', status: 'importado', placed: [{ rfc: 'XIQB891116QE4', month: '2025-03', count: 1 }] }),
      ev({ id: 'u3', status: 'importado', reason: 'Lo guardamos en tu RFC EKU9003173C9', placed: [{ rfc: 'EKU9003173C9', month: '2024-12', count: 1 }] }),
    ], rows);
    expect(got).toEqual([
      { rfc: 'XIQB891116QE4', month: '2025-03', count: 3, text: '3 en marzo de 2025', otherAccount: false },
      { rfc: 'EKU9003173C9', month: '2024-12', count: 1, text: '1 en diciembre de 2024', otherAccount: true },
    ]);
    expect(placeText(1, '2026-01')).toBe('1 en enero de 2026');
  });

  it('a zip whose entries say where they went is not counted twice', () => {
    const got = places([
      ev({ id: 'z', name: 'a.zip', status: 'importado', placed: [{ rfc: 'XIQB891116QE4', month: '2025-03', count: 2 }] }),
      ev({ id: 'z1', parent_id: 'z', status: 'importado', placed: [{ rfc: 'XIQB891116QE4', month: '2025-03', count: 1 }] }),
      ev({ id: 'z2', parent_id: 'z', status: 'importado', placed: [{ rfc: 'XIQB891116QE4', month: '2025-03', count: 1 }] }),
    ], [row({ serverId: 'z' })]);
    expect(got.map((p) => p.text)).toEqual(['2 en marzo de 2025']);
  });

  it('files of other dialogs and duplicates without places count nothing', () => {
    expect(places([ev({ id: 'otro', status: 'importado', placed: [{ rfc: 'XIQB891116QE4', month: '2025-03', count: 5 }] })], [row({ serverId: 'u1' })])).toEqual([]);
  });

  it('links to the account\'s month in the dashboard', () => {
    expect(monthHref('EKU9003173C9', '2024-12')).toBe('#/home?month=2024-12&rfc=EKU9003173C9');
  });
});
