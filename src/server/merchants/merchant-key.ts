// Point-of-sale API keys (X-Merchant-Key): only their SHA-256 is stored. As a CLI,
// `tsx src/server/merchants/merchant-key.ts <short_name>` rotates a merchant's key and prints the new one
// once (DATABASE_URL, else the embedded PGlite in DATA_DIR: stop the server first).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies } from '../db/schema';

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** 'ccm_' + 43 base64url chars (256 random bits). */
export const newMerchantKey = (): string => `ccm_${randomBytes(32).toString('base64url')}`;

/** Sets a new key for the merchant and returns it (the only time it is seen); null = no such merchant. */
export async function rotateMerchantKey(db: Db, shortName: string): Promise<string | null> {
  const key = newMerchantKey();
  const done = await db
    .update(companies)
    .set({ apiKeyHash: sha256Hex(key) })
    .where(and(eq(companies.shortName, shortName), eq(companies.kind, 'merchant')))
    .returning({ id: companies.id });
  return done.length > 0 ? key : null;
}

/** Constant-time comparison of a presented key with the stored hash. */
export function merchantKeyMatches(presented: string | undefined, storedHash: string | null): boolean {
  if (!presented || !storedHash || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(presented), 'hex'), Buffer.from(storedHash, 'hex'));
}

async function cli(): Promise<void> {
  const short = process.argv[2];
  if (!short) {
    console.error('Uso: tsx src/server/merchants/merchant-key.ts <short_name>');
    process.exit(2);
  }
  const { withCliDatabase } = await import('../cli-database');
  await withCliDatabase(
    async (db) => {
      const key = await rotateMerchantKey(db, short);
      if (!key) {
        console.error(`No existe el comercio «${short}».`);
        process.exitCode = 1;
        return;
      }
      console.log(`Nueva llave de ${short} (la anterior ya no sirve; guárdala, no se vuelve a mostrar):`);
      console.log(key);
    },
    { seed: true },
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cli().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
