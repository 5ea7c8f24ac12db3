// What an uploaded file is, by its bytes (never by its name or the browser's type): XML, PDF or ZIP.
export type UploadKind = 'xml' | 'pdf' | 'zip';

export function sniffUpload(b: Uint8Array): UploadKind | null {
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6))) return 'zip';
  if (b.length >= 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d) return 'pdf';
  let i = 0;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
  // UTF-16 with a BOM is XML too (the reader then refuses it with its own reason).
  else if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) return 'xml';
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return i < b.length && b[i] === 0x3c ? 'xml' : null;
}
