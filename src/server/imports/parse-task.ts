// What the parse pool's workers run (and what runs in-process when there are no workers): reading one
// untrusted file, with nothing but its bytes in and plain data out.
import { readCfdi, type CfdiReadResult } from '../cfdi/read';
import { pdfFacts, type PdfFacts } from './pdf-text';

export interface ParseRequest {
  id: number;
  kind: 'pdf' | 'xml';
  bytes: Uint8Array;
}

export type ParseValue = PdfFacts | CfdiReadResult;

export function runParse(req: Pick<ParseRequest, 'kind' | 'bytes'>): ParseValue {
  return req.kind === 'pdf' ? pdfFacts(req.bytes) : readCfdi(req.bytes);
}
