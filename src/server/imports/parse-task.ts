// What the parse pool's workers run (and what runs in-process when there are no workers): reading one
// untrusted file, with nothing but its bytes in and plain data out. A CFDI the reader accepts is also
// checked there (its Sello and the timbre's SelloSAT, verify-seals.ts), inside the same time budget,
// so the import stores what the checks found without spending the event loop's time on them.
import { readCfdiAndTree, type CfdiReadResult } from '../cfdi/read';
import { cfdiChecks, type CfdiChecks } from '../cfdi/verify-seals';
import { pdfFacts, type PdfFacts } from './pdf-text';

export interface ParseRequest {
  id: number;
  kind: 'pdf' | 'xml';
  bytes: Uint8Array;
}

/** A CFDI as read, with its integrity checks when it was read (absent: never checked, e.g. refused). */
export type CheckedCfdiRead = CfdiReadResult & { checks?: CfdiChecks };

export type ParseValue = PdfFacts | CheckedCfdiRead;

/** Reads a CFDI and, when it is one we import, checks it on the tree the same parse built. */
export function readCheckedCfdi(bytes: Uint8Array): CheckedCfdiRead {
  const { read, doc } = readCfdiAndTree(bytes);
  return read.ok ? { ...read, checks: cfdiChecks(doc ?? bytes) } : read;
}

export function runParse(req: Pick<ParseRequest, 'kind' | 'bytes'>): ParseValue {
  return req.kind === 'pdf' ? pdfFacts(req.bytes) : readCheckedCfdi(req.bytes);
}
