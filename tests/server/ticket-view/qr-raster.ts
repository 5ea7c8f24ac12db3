// Reads a QR back from the qrcode library's SVG (viewBox N×N, one stroked path of horizontal runs) by
// rasterising it to grey pixels and decoding them with zxing, as a camera would.
import BinaryBitmap from '@zxing/library/es2015/core/BinaryBitmap';
import HybridBinarizer from '@zxing/library/es2015/core/common/HybridBinarizer';
import RGBLuminanceSource from '@zxing/library/es2015/core/RGBLuminanceSource';
import QRCodeReader from '@zxing/library/es2015/core/qrcode/QRCodeReader';

export function svgModules(svg: string): boolean[][] {
  const n = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const d = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1];
  if (!n || !d) throw new Error('not a qrcode SVG');
  const grid = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
  let x = 0;
  let y = 0;
  for (const [, cmd, a, b] of d.matchAll(/([MmHh])([\d.]+)(?:\s([\d.]+))?/g)) {
    const p = Number(a);
    if (cmd === 'M') [x, y] = [p, Number(b)];
    else if (cmd === 'm') [x, y] = [x + p, y + Number(b)];
    else {
      const len = cmd === 'h' ? p : p - x;
      for (let i = 0; i < len; i++) grid[Math.floor(y)]![x + i] = true;
      x += len;
    }
  }
  return grid;
}

export function decodeModules(grid: boolean[][], scale = 4): string {
  const n = grid.length * scale;
  const lum = new Uint8ClampedArray(n * n);
  for (let py = 0; py < n; py++) {
    for (let px = 0; px < n; px++) lum[py * n + px] = grid[Math.floor(py / scale)]![Math.floor(px / scale)] ? 0 : 255;
  }
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(lum, n, n)));
  return new QRCodeReader().decode(bitmap).getText();
}
