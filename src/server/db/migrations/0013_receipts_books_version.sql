-- Rows stored before receipts knew their CFDI type, seals and findings are version 0, to be re-read once
-- from their XML (imports/reclassify.ts); every row written from now on is read with today's rules.
ALTER TABLE "receipts" ADD COLUMN "books_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ALTER COLUMN "books_version" SET DEFAULT 1;--> statement-breakpoint
CREATE INDEX "receipts_books_version_idx" ON "receipts" ("id") WHERE "books_version" = 0;
