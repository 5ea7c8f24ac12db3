// What @zxing/browser's QR reader takes from @zxing/library, from the library's own modules. The build
// resolves '@zxing/library' to this file (vite.config.ts): the library's index re-exports every format
// (~114 kB gzip, kept whole since the package does not declare itself free of side effects), while
// scanning QR codes needs these (~28 kB gzip with @zxing/browser's camera and decode loop).
export { default as ArgumentException } from '@zxing/library/es2015/core/ArgumentException';
export { default as BinaryBitmap } from '@zxing/library/es2015/core/BinaryBitmap';
export { default as ChecksumException } from '@zxing/library/es2015/core/ChecksumException';
export { default as DecodeHintType } from '@zxing/library/es2015/core/DecodeHintType';
export { default as FormatException } from '@zxing/library/es2015/core/FormatException';
export { default as HybridBinarizer } from '@zxing/library/es2015/core/common/HybridBinarizer';
export { default as IllegalArgumentException } from '@zxing/library/es2015/core/IllegalArgumentException';
export { default as InvertedLuminanceSource } from '@zxing/library/es2015/core/InvertedLuminanceSource';
export { default as LuminanceSource } from '@zxing/library/es2015/core/LuminanceSource';
export { default as NotFoundException } from '@zxing/library/es2015/core/NotFoundException';
export { default as QRCodeReader } from '@zxing/library/es2015/core/qrcode/QRCodeReader';
