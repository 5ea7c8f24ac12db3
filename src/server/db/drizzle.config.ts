// drizzle-kit config: `npx drizzle-kit generate --config src/server/db/drizzle.config.ts` writes SQL migrations.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/server/db/schema.ts', './src/server/db/schema-company.ts'],
  out: './src/server/db/migrations',
});
