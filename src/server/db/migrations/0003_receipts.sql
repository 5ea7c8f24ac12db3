CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"uuid" text NOT NULL,
	"version" text NOT NULL,
	"rfc_issuer" text NOT NULL,
	"name_issuer" text DEFAULT '' NOT NULL,
	"rfc_receiver" text NOT NULL,
	"name_receiver" text DEFAULT '' NOT NULL,
	"emission_date" text NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"currency" text DEFAULT 'MXN' NOT NULL,
	"amount_mxn" numeric(18, 2) NOT NULL,
	"imp_tras" numeric(18, 2) DEFAULT '0' NOT NULL,
	"imp_ret" numeric(18, 2) DEFAULT '0' NOT NULL,
	"metodo_pago" text DEFAULT '' NOT NULL,
	"numctapago" text DEFAULT '' NOT NULL,
	"xml_key" text NOT NULL,
	"xml_size" integer NOT NULL,
	"pdf_key" text,
	"pdf_size" integer,
	"pdf_source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "cc" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_client_uuid_idx" ON "receipts" USING btree ("client_id","uuid");--> statement-breakpoint
CREATE INDEX "receipts_user_id_idx" ON "receipts" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE set null ON UPDATE no action;