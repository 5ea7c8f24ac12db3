CREATE TABLE "cfdi_payments" (
	"client_id" integer NOT NULL,
	"receipt_id" uuid NOT NULL,
	"document_uuid" text NOT NULL,
	"seq" integer NOT NULL,
	"num_parcialidad" integer,
	"currency" text NOT NULL,
	"imp_saldo_ant" numeric(18, 2),
	"imp_pagado" numeric(18, 2) NOT NULL,
	"imp_saldo_insoluto" numeric(18, 2),
	"paid_at" text NOT NULL,
	CONSTRAINT "cfdi_payments_receipt_id_seq_pk" PRIMARY KEY("receipt_id","seq")
);
--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "tipo" text DEFAULT 'I' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "details" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "seal" text DEFAULT 'sin_verificar' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "seal_sat" text DEFAULT 'sin_verificar' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "findings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "cancel_status" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "replaced_by" text;--> statement-breakpoint
ALTER TABLE "cfdi_payments" ADD CONSTRAINT "cfdi_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi_payments" ADD CONSTRAINT "cfdi_payments_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cfdi_payments_document_idx" ON "cfdi_payments" USING btree ("client_id","document_uuid");