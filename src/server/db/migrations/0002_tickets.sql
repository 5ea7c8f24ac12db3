CREATE TABLE "companies" (
	"id" integer PRIMARY KEY NOT NULL,
	"short_name" text NOT NULL,
	"name" text NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	CONSTRAINT "companies_short_name_unique" UNIQUE("short_name")
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"base" text NOT NULL,
	"date" date NOT NULL,
	"rate" numeric(12, 6) NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_base_date_pk" PRIMARY KEY("base","date")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"status_id" smallint NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_number" text DEFAULT '' NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"meta_tag_id" integer,
	"income_meta_tag_id" integer,
	"currency" text DEFAULT 'MXN' NOT NULL,
	"original_amount" numeric(14, 2),
	"latitude" double precision,
	"longitude" double precision,
	"image_key" text,
	"image_type" text,
	"image_size" integer,
	"receipt_id" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_meta_tag_id_meta_tags_id_fk" FOREIGN KEY ("meta_tag_id") REFERENCES "public"."meta_tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_income_meta_tag_id_income_meta_tags_id_fk" FOREIGN KEY ("income_meta_tag_id") REFERENCES "public"."income_meta_tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_client_received_idx" ON "tickets" USING btree ("client_id","received_at");--> statement-breakpoint
CREATE INDEX "tickets_user_id_idx" ON "tickets" USING btree ("user_id");