CREATE TABLE "ticket_month_totals" (
	"client_id" integer NOT NULL,
	"month" date NOT NULL,
	"type" smallint NOT NULL,
	"meta_tag_id" integer NOT NULL,
	"venue" text NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"tickets" integer NOT NULL,
	CONSTRAINT "ticket_month_totals_client_id_month_type_meta_tag_id_venue_pk" PRIMARY KEY("client_id","month","type","meta_tag_id","venue")
);
--> statement-breakpoint
ALTER TABLE "ticket_month_totals" ADD CONSTRAINT "ticket_month_totals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Adds the live tickets in `added` to the totals and takes those in `removed` away (both: jsonb arrays of
-- ticket rows, from the statement triggers below), bucketed by Mexico City month, venue = the CFDI
-- issuer's name, else the supported company's name. Rows of a tax account being deleted are skipped
-- (its totals go with it, by cascade).
CREATE OR REPLACE FUNCTION cc_apply_ticket_totals(added jsonb, removed jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO ticket_month_totals AS m (client_id, month, type, meta_tag_id, venue, total, tickets)
  SELECT mv.client_id,
         date_trunc('month', mv.received_at AT TIME ZONE 'America/Mexico_City')::date,
         mv.type,
         coalesce(mv.meta_tag_id, 0),
         coalesce(nullif(r.name_issuer, ''), c.name, ''),
         sum(mv.amount * mv.sign),
         sum(mv.sign)::int
  FROM (
    SELECT x.*, 1 AS sign FROM jsonb_populate_recordset(NULL::tickets, coalesce(added, '[]')) x WHERE x.deleted_at IS NULL
    UNION ALL
    SELECT x.*, -1 FROM jsonb_populate_recordset(NULL::tickets, coalesce(removed, '[]')) x WHERE x.deleted_at IS NULL
  ) mv
  LEFT JOIN companies c ON c.id = mv.company_id
  LEFT JOIN receipts r ON r.id = mv.receipt_id
  WHERE EXISTS (SELECT 1 FROM clients k WHERE k.id = mv.client_id)
  GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (client_id, month, type, meta_tag_id, venue)
  DO UPDATE SET total = m.total + excluded.total, tickets = m.tickets + excluded.tickets
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cc_ticket_totals_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cc_apply_ticket_totals((SELECT jsonb_agg(to_jsonb(n)) FROM new_rows n), NULL);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cc_ticket_totals_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cc_apply_ticket_totals(NULL, (SELECT jsonb_agg(to_jsonb(o)) FROM old_rows o));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only rows whose counted columns changed move (a note or an image does not touch the totals).
CREATE OR REPLACE FUNCTION cc_ticket_totals_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cc_apply_ticket_totals(
    (SELECT jsonb_agg(to_jsonb(n)) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (o.client_id, o.received_at, o.type, o.meta_tag_id, o.company_id, o.receipt_id, o.amount, o.deleted_at)
        IS DISTINCT FROM (n.client_id, n.received_at, n.type, n.meta_tag_id, n.company_id, n.receipt_id, n.amount, n.deleted_at)),
    (SELECT jsonb_agg(to_jsonb(o)) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (o.client_id, o.received_at, o.type, o.meta_tag_id, o.company_id, o.receipt_id, o.amount, o.deleted_at)
        IS DISTINCT FROM (n.client_id, n.received_at, n.type, n.meta_tag_id, n.company_id, n.receipt_id, n.amount, n.deleted_at)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_totals_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cc_ticket_totals_insert();
--> statement-breakpoint
CREATE TRIGGER tickets_totals_update AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cc_ticket_totals_update();
--> statement-breakpoint
CREATE TRIGGER tickets_totals_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cc_ticket_totals_delete();
--> statement-breakpoint
-- Tickets written before this migration, in one grouped pass.
INSERT INTO ticket_month_totals (client_id, month, type, meta_tag_id, venue, total, tickets)
SELECT t.client_id,
       date_trunc('month', t.received_at AT TIME ZONE 'America/Mexico_City')::date,
       t.type,
       coalesce(t.meta_tag_id, 0),
       coalesce(nullif(r.name_issuer, ''), c.name, ''),
       sum(t.amount),
       count(*)::int
FROM tickets t
LEFT JOIN companies c ON c.id = t.company_id
LEFT JOIN receipts r ON r.id = t.receipt_id
WHERE t.deleted_at IS NULL
GROUP BY 1, 2, 3, 4, 5;
