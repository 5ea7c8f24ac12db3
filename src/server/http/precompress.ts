// The built PWA's text files, compressed once at build time (vite.config.ts) next to each file: `name.br`
// (Brotli at its best, 13 % smaller than gzip for the main script) and `name.gz`. static.ts serves them to
// browsers that accept them, so a phone downloads fewer bytes and the server compresses nothing per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Smaller files gain too little to pay for a second file. */
const MIN_BYTES = 1024;

/** Writes `.br` and `.gz` beside each text file of `dir` (dot folders, such as .vite, skipped); returns how many files. */
export function precompressDir(dir: string): number {
  let count = 0;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    const stats = statSync(path);
    if (stats.isDirectory()) {
      count += precompressDir(path);
      continue;
    }
    if (!TEXT.test(name) || stats.size < MIN_BYTES) continue;
    const bytes = readFileSync(path);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gz = gzipSync(bytes, { level: 9 });
    // Only what is actually smaller: serveStatic prefers a compressed file whenever one exists.
    if (br.length < bytes.length) writeFileSync(`${path}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${path}.gz`, gz);
    count++;
  }
  return count;
}
