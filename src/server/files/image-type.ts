// What an uploaded file really is, by its first bytes: the name and the declared type are the sender's word.
export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
/** A ticket's attachment: an image, or the PDF the new-spending panel also accepts (spec §5). */
export type AttachmentType = ImageType | 'application/pdf';

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return 'image/gif';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'image/webp';
  return null;
}

export function sniffAttachmentType(bytes: Uint8Array): AttachmentType | null {
  return sniffImageType(bytes) ?? (ascii(bytes, 0, '%PDF-') ? 'application/pdf' : null);
}
