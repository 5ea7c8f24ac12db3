// 'Importar CFDIs' (spec §5 Upload, §9): which files may be sent, checked on the phone before anything
// is queued. The server checks again (it never trusts the client); these checks save a useless upload.
import { MSG } from './messages';

/** Spec §9: 2 MB per file (the server refuses 2 MB + 1 byte). */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** Spec §9: at most 100 files at once; more and none is sent. */
export const IMPORT_MAX_FILES = 100;
/** What the picker offers. */
export const IMPORT_ACCEPT = '.xml,.pdf,.zip';
/** Bytes of the file's beginning the type check needs (leading whitespace before an XML's '<' included). */
export const IMPORT_HEAD_BYTES = 1024;

export type ImportKind = 'xml' | 'pdf' | 'zip';

/** The kind a file name claims, by its extension (case-insensitive). */
export function kindByName(name: string): ImportKind | null {
  const m = /\.([a-z0-9]+)$/i.exec(name.trim());
  const ext = m?.[1]?.toLowerCase();
  return ext === 'xml' || ext === 'pdf' || ext === 'zip' ? ext : null;
}

function startsWith(bytes: Uint8Array, at: number, prefix: readonly number[]): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // PK\x03\x04
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The kind the first bytes show: XML is '<' after an optional UTF-8 BOM and whitespace. */
export function kindByContent(head: Uint8Array): ImportKind | null {
  if (startsWith(head, 0, PDF_MAGIC)) return 'pdf';
  if (startsWith(head, 0, ZIP_MAGIC)) return 'zip';
  let i = startsWith(head, 0, UTF8_BOM) ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return head[i] === 0x3c ? 'xml' : null;
}

export interface ImportCandidate {
  name: string;
  size: number;
  /** The first IMPORT_HEAD_BYTES bytes (or the whole file when shorter). */
  head: Uint8Array;
}

export type FileCheck = { ok: true; kind: ImportKind } | { ok: false; message: string };

/**
 * One file: its extension and its first bytes must both say xml, pdf or zip, and the same one (a
 * renamed photo is refused); then at most 2 MB. An empty file cannot be a CFDI: 'Ha ocurrido un error'
 * would not tell the user anything, so it is a type problem too.
 */
export function checkImportFile(file: ImportCandidate): FileCheck {
  const claimed = kindByName(file.name);
  if (!claimed || file.size === 0 || kindByContent(file.head) !== claimed) return { ok: false, message: MSG.importFileType };
  if (file.size > IMPORT_MAX_BYTES) return { ok: false, message: MSG.importFileTooLarge };
  return { ok: true, kind: claimed };
}

export interface BatchCheck<F extends ImportCandidate> {
  /** More than IMPORT_MAX_FILES: the message, and nothing of the batch is sent. */
  tooMany: string | null;
  accepted: { file: F; kind: ImportKind }[];
  refused: { file: F; message: string }[];
}

/** A drop or a pick: good files go, bad ones are listed with their message; over 100, none goes. */
export function checkImportBatch<F extends ImportCandidate>(files: readonly F[]): BatchCheck<F> {
  if (files.length > IMPORT_MAX_FILES) return { tooMany: MSG.importTooMany, accepted: [], refused: [] };
  const result: BatchCheck<F> = { tooMany: null, accepted: [], refused: [] };
  for (const file of files) {
    const check = checkImportFile(file);
    if (check.ok) result.accepted.push({ file, kind: check.kind });
    else result.refused.push({ file, message: check.message });
  }
  return result;
}

/** One `file` event of the upload statuses stream (DESIGN §3): what the server sends, what the modal reads. */
export interface FileEvent {
  id: string;
  name: string;
  status: string;
  reason: string | null;
  parent_id: string | null;
  ticket_ids: string[];
  /** Ours: where its tickets went — each tax account (RFC) and Mexico City month ('2025-03') with how many. */
  placed?: { rfc: string; month: string; count: number }[];
}
