CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" integer,
	"parent_id" uuid,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"size" integer NOT NULL,
	"file_key" text,
	"status" text NOT NULL,
	"reason" text,
	"ticket_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "sat_status" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "sat_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_user_updated_idx" ON "uploads" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "uploads_parent_idx" ON "uploads" USING btree ("parent_id");