ALTER TABLE "clients" ADD COLUMN "rfc_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "rfc_verified_by" text;