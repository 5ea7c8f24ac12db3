CREATE TABLE "form_fields" (
	"id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"field_name" text NOT NULL,
	"type_id" smallint NOT NULL,
	"min_length" smallint,
	"helper_image" text,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"meaning" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inactive_rfcs" (
	"rfc" text PRIMARY KEY NOT NULL,
	"list" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer,
	"client_id" integer,
	"ticket_id" uuid,
	"channel" text NOT NULL,
	"receiver" jsonb NOT NULL,
	"email" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"replaces_id" uuid,
	"sealed_xml_key" text,
	"uuid" text,
	"xml_key" text,
	"pdf_key" text,
	"receipt_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stamped_at" timestamp with time zone,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "merchant_tickets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ref" text NOT NULL,
	"ticket_number" text NOT NULL,
	"venue" text DEFAULT '' NOT NULL,
	"postal_code" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"items" jsonb NOT NULL,
	"subtotal" numeric(14, 2) NOT NULL,
	"tax" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"forma_pago" text NOT NULL,
	"check_code" text DEFAULT '' NOT NULL,
	"invoice_request_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "tax_regime" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "kind" text DEFAULT 'merchant' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "rfc" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "legal_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "tax_regime" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "postal_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "csd_cer" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "csd_key" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "csd_password_enc" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "api_key_hash" text;--> statement-breakpoint
ALTER TABLE "form_fields" ADD CONSTRAINT "form_fields_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_tickets" ADD CONSTRAINT "merchant_tickets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_fields_company_idx" ON "form_fields" USING btree ("company_id","position");--> statement-breakpoint
CREATE INDEX "invoice_requests_ticket_idx" ON "invoice_requests" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "invoice_requests_user_idx" ON "invoice_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_tickets_ref_idx" ON "merchant_tickets" USING btree ("ref");--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_tickets_company_number_idx" ON "merchant_tickets" USING btree ("company_id","ticket_number");--> statement-breakpoint
UPDATE "companies" SET "kind" = 'manual' WHERE "id" = 1;--> statement-breakpoint
UPDATE "companies" SET "kind" = 'cfdi' WHERE "id" = 2;
