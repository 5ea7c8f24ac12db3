-- Cheaper bulk ticket writes (the CFDI import writes hundreds of tickets per statement), same results:
-- 1. The change feed's per-row trigger (0015) is skipped on INSERT for the accounts whose feed lock the
--    transaction already holds and has named in the setting cc.feed_locked_accounts (',12,13,': see
--    imports/import-cfdi.ts). Such a row keeps the column's default, nextval('ticket_change_seq'), which is
--    taken after that lock as 0015 requires. Any other insert, and every update, runs the trigger as before.
-- 2. The month totals of inserted tickets are summed straight from the statement's new rows, without the
--    round trip through jsonb that cc_apply_ticket_totals makes (updates and deletes still use it).
-- 3. A payment CFDI's rows touch the tickets they pay once per statement, not once per row.
DROP TRIGGER "tickets_change_seq" ON "tickets";
--> statement-breakpoint
CREATE TRIGGER "tickets_change_seq" BEFORE UPDATE ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION cc_ticket_change_seq();
--> statement-breakpoint
CREATE TRIGGER "tickets_change_seq_insert" BEFORE INSERT ON "tickets"
  FOR EACH ROW
  WHEN (strpos(coalesce(current_setting('cc.feed_locked_accounts', true), ''), ',' || NEW.client_id || ',') = 0)
  EXECUTE FUNCTION cc_ticket_change_seq();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cc_ticket_totals_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_month_totals AS m (client_id, month, type, meta_tag_id, venue, total, tickets)
  SELECT n.client_id,
         date_trunc('month', n.received_at AT TIME ZONE 'America/Mexico_City')::date,
         n.type,
         coalesce(n.meta_tag_id, 0),
         coalesce(nullif(r.name_issuer, ''), c.name, ''),
         sum(n.amount),
         count(*)::int
  FROM new_rows n
  LEFT JOIN companies c ON c.id = n.company_id
  LEFT JOIN receipts r ON r.id = n.receipt_id
  WHERE n.deleted_at IS NULL AND EXISTS (SELECT 1 FROM clients k WHERE k.id = n.client_id)
  GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (client_id, month, type, meta_tag_id, venue)
  DO UPDATE SET total = m.total + excluded.total, tickets = m.tickets + excluded.tickets;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "cfdi_payments_touch_tickets" ON "cfdi_payments";
--> statement-breakpoint
DROP FUNCTION cc_touch_tickets_of_payment();
--> statement-breakpoint
-- A payment CFDI changes how the paid invoice shows, in any account of the same owner.
CREATE OR REPLACE FUNCTION cc_touch_tickets_of_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets t SET change_seq = 0
  FROM changed_rows p, clients mine, clients k, receipts r
  WHERE mine.id = p.client_id AND k.user_id = mine.user_id AND r.client_id = k.id AND r.uuid = p.document_uuid AND t.receipt_id = r.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "cfdi_payments_touch_tickets_insert" AFTER INSERT ON "cfdi_payments" REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cc_touch_tickets_of_payments();
--> statement-breakpoint
CREATE TRIGGER "cfdi_payments_touch_tickets_delete" AFTER DELETE ON "cfdi_payments" REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cc_touch_tickets_of_payments();
