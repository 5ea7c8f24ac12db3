import { describe, expect, it } from 'vitest';
import {
  IMPORT_MAX_BYTES, IMPORT_MAX_FILES, checkImportBatch, checkImportFile, kindByContent, kindByName,
} from '../../src/domain/import-files';
import { MSG } from '../../src/domain/messages';

const enc = (s: string) => new TextEncoder().encode(s);
const XML = enc('<?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante/>');
const PDF = enc('%PDF-1.7\n%âãÏÓ');
const ZIP = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function file(name: string, head: Uint8Array, size = head.length) {
  return { name, size, head };
}

describe('kindByName', () => {
  it('takes xml, pdf and zip in any case, nothing else', () => {
    expect(kindByName('factura.XML')).toBe('xml');
    expect(kindByName('a.b.pdf')).toBe('pdf');
    expect(kindByName('descarga-sat.Zip')).toBe('zip');
    expect(kindByName('foto.png')).toBeNull();
    expect(kindByName('xml')).toBeNull();
    expect(kindByName('factura.xml.exe')).toBeNull();
  });
});

describe('kindByContent', () => {
  it('knows PDF and ZIP by their signatures', () => {
    expect(kindByContent(PDF)).toBe('pdf');
    expect(kindByContent(ZIP)).toBe('zip');
    expect(kindByContent(enc('PK\x05\x06'))).toBeNull(); // an empty zip's end record: not a local file header
  });

  it("knows XML by '<' after an optional BOM and whitespace", () => {
    expect(kindByContent(XML)).toBe('xml');
    expect(kindByContent(Uint8Array.from([0xef, 0xbb, 0xbf, ...enc('<cfdi/>')]))).toBe('xml');
    expect(kindByContent(enc(' \r\n\t <cfdi/>'))).toBe('xml');
    expect(kindByContent(enc('   '))).toBeNull();
    expect(kindByContent(enc('hola <x/>'))).toBeNull();
    expect(kindByContent(PNG)).toBeNull();
    expect(kindByContent(new Uint8Array())).toBeNull();
  });
});

describe('checkImportFile', () => {
  it('accepts a file whose name and bytes agree, up to 2 MB exactly', () => {
    expect(checkImportFile(file('a.xml', XML))).toEqual({ ok: true, kind: 'xml' });
    expect(checkImportFile(file('a.pdf', PDF, IMPORT_MAX_BYTES))).toEqual({ ok: true, kind: 'pdf' });
    expect(checkImportFile(file('a.zip', ZIP))).toEqual({ ok: true, kind: 'zip' });
  });

  it("refuses other types, and names that lie about the content, with 'Tipo de archivo no soportado'", () => {
    expect(checkImportFile(file('foto.png', PNG))).toEqual({ ok: false, message: 'Tipo de archivo no soportado' });
    expect(checkImportFile(file('foto.xml', PNG))).toEqual({ ok: false, message: MSG.importFileType });
    expect(checkImportFile(file('factura.pdf', XML))).toEqual({ ok: false, message: MSG.importFileType });
    expect(checkImportFile(file('vacio.xml', new Uint8Array(), 0))).toEqual({ ok: false, message: MSG.importFileType });
  });

  it("refuses 2 MB + 1 byte with 'Archivo demasiado grande'", () => {
    expect(checkImportFile(file('a.zip', ZIP, IMPORT_MAX_BYTES + 1))).toEqual({ ok: false, message: 'Archivo demasiado grande' });
  });
});

describe('checkImportBatch', () => {
  it('sends the good files and lists the bad ones with their message', () => {
    const good = file('a.xml', XML);
    const bad = file('b.png', PNG);
    const big = file('c.pdf', PDF, IMPORT_MAX_BYTES + 1);
    const r = checkImportBatch([good, bad, big]);
    expect(r.tooMany).toBeNull();
    expect(r.accepted).toEqual([{ file: good, kind: 'xml' }]);
    expect(r.refused).toEqual([{ file: bad, message: MSG.importFileType }, { file: big, message: MSG.importFileTooLarge }]);
  });

  it("takes 100 files, and refuses 101 as a whole: 'Demasiados archivos simultáneos', none sent", () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => file(`f${i}.xml`, XML));
    expect(checkImportBatch(many(IMPORT_MAX_FILES)).accepted).toHaveLength(100);
    expect(checkImportBatch(many(IMPORT_MAX_FILES + 1))).toEqual({ tooMany: 'Demasiados archivos simultáneos', accepted: [], refused: [] });
  });
});
