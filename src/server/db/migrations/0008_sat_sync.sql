CREATE TABLE "sat_connections" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"ciec_enc" text,
	"efirma_cer" text,
	"efirma_key" text,
	"efirma_password_enc" text,
	"cert_serial" text,
	"cert_valid_until" timestamp with time zone,
	"running" boolean DEFAULT false NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_ok_at" timestamp with time zone,
	"last_error" text,
	"last_imported" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sat_downloads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"day" text NOT NULL,
	"direction" text NOT NULL,
	"request_id" text,
	"state" text NOT NULL,
	"upload_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sat_portal_accounts" (
	"rfc" text PRIMARY KEY NOT NULL,
	"ciec_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sat_connections" ADD CONSTRAINT "sat_connections_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sat_downloads" ADD CONSTRAINT "sat_downloads_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sat_downloads_day_idx" ON "sat_downloads" USING btree ("client_id","day","direction");