// A minimal PNG encoder (8-bit greyscale, node:zlib) and the small receipt pictures of the demo data:
// no image library for a few kilobytes of pixels.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Greyscale pixels (one byte each, row by row) → PNG bytes. */
export function encodeGreyPng(width: number, height: number, pixels: Uint8Array): Uint8Array<ArrayBuffer> {
  if (pixels.length !== width * height) throw new Error('png: tamaño de píxeles incorrecto');
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: greyscale
  const signature = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const png = Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
  return new Uint8Array(png);
}

export const RECEIPT_SIZE = { width: 120, height: 200 } as const;

/** A pale 120×200 paper receipt: a header, item lines with prices, a total and a barcode; varied by `random`. */
export function receiptPng(random: () => number): Uint8Array<ArrayBuffer> {
  const { width, height } = RECEIPT_SIZE;
  const px = new Uint8Array(width * height).fill(246);
  const rect = (x: number, y: number, w: number, h: number, grey: number) => {
    for (let j = Math.max(0, y); j < Math.min(height, y + h); j++) {
      for (let i = Math.max(0, x); i < Math.min(width, x + w); i++) px[j * width + i] = grey;
    }
  };
  const dashed = (y: number) => {
    for (let x = 8; x < width - 8; x += 6) rect(x, y, 3, 1, 190);
  };
  const headerWidth = 50 + Math.floor(random() * 30);
  rect((width - headerWidth) >> 1, 10, headerWidth, 6, 90);
  rect((width - 60) >> 1, 20, 60, 3, 170);
  rect((width - 44) >> 1, 26, 44, 3, 170);
  dashed(36);
  const items = 4 + Math.floor(random() * 6);
  let y = 44;
  for (let i = 0; i < items; i++, y += 9) {
    rect(10, y, 20 + Math.floor(random() * 45), 3, 150);
    rect(width - 10 - (14 + Math.floor(random() * 10)), y, 14 + Math.floor(random() * 10), 3, 150);
  }
  dashed(y + 2);
  rect(10, y + 10, 30, 5, 80);
  rect(width - 46, y + 10, 36, 5, 80);
  for (let x = 20; x < width - 20; x += 2 + Math.floor(random() * 2)) {
    if (random() < 0.6) rect(x, height - 36, 1 + Math.floor(random() * 2), 22, 60);
  }
  // A faint fold across the paper.
  rect(0, 98 + Math.floor(random() * 8), width, 1, 236);
  return encodeGreyPng(width, height, px);
}
