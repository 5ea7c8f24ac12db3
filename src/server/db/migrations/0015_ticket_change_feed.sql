-- The change feed of each tax account (GET /api/v2/tickets/changes): every ticket write takes the next value
-- of one sequence, and a hard delete leaves a tombstone with its own value, so a phone asks only for what
-- changed after the last value it saw. A soft delete is an update: the feed reports it as a deletion.
-- Sequence values are taken at write time, not at commit: each write holds a shared advisory lock on its
-- account (class 1952671859, 'tchs') until its transaction ends, and the feed takes that lock exclusively
-- for a moment before reading the sequence, so every value it hands out as a cursor is already committed.
CREATE SEQUENCE "ticket_change_seq";
--> statement-breakpoint
-- The default fills the existing rows; on a write the trigger below sets the value again, after taking the lock.
ALTER TABLE "tickets" ADD COLUMN "change_seq" bigint DEFAULT nextval('ticket_change_seq') NOT NULL;
--> statement-breakpoint
CREATE INDEX "tickets_client_change_idx" ON "tickets" USING btree ("client_id","change_seq");
--> statement-breakpoint
-- A CFDI's change finds its ticket by this index (the trigger below), as does deleting a CFDI (ON DELETE SET NULL).
CREATE INDEX "tickets_receipt_id_idx" ON "tickets" USING btree ("receipt_id") WHERE "tickets"."receipt_id" is not null;
--> statement-breakpoint
CREATE TABLE "ticket_tombstones" (
	"client_id" integer NOT NULL,
	"change_seq" bigint NOT NULL,
	"ticket_id" uuid NOT NULL,
	CONSTRAINT "ticket_tombstones_client_id_change_seq_pk" PRIMARY KEY("client_id","change_seq")
);
--> statement-breakpoint
ALTER TABLE "ticket_tombstones" ADD CONSTRAINT "ticket_tombstones_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cc_ticket_change_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(1952671859, NEW.client_id);
  -- A ticket moved to another account leaves the old account's feed as a deletion.
  IF TG_OP = 'UPDATE' AND NEW.client_id <> OLD.client_id THEN
    PERFORM pg_advisory_xact_lock_shared(1952671859, OLD.client_id);
    INSERT INTO ticket_tombstones (client_id, change_seq, ticket_id) VALUES (OLD.client_id, nextval('ticket_change_seq'), OLD.id);
  END IF;
  NEW.change_seq := nextval('ticket_change_seq');
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_change_seq BEFORE INSERT OR UPDATE ON tickets
  FOR EACH ROW EXECUTE FUNCTION cc_ticket_change_seq();
--> statement-breakpoint
-- Tickets that go with their tax account leave no tombstone: the account's feed goes too.
CREATE OR REPLACE FUNCTION cc_ticket_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM clients k WHERE k.id = OLD.client_id) THEN
    PERFORM pg_advisory_xact_lock_shared(1952671859, OLD.client_id);
    INSERT INTO ticket_tombstones (client_id, change_seq, ticket_id) VALUES (OLD.client_id, nextval('ticket_change_seq'), OLD.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tombstone AFTER DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION cc_ticket_tombstone();
--> statement-breakpoint
-- A ticket's JSON also shows its CFDI, the CFDI that replaced another, its latest invoice request and its
-- company review: writes there move the ticket in the feed (the ticket trigger above gives the new value).
CREATE OR REPLACE FUNCTION cc_touch_tickets_of_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET change_seq = 0 WHERE receipt_id = NEW.id;
  IF NEW.replaced_by IS DISTINCT FROM OLD.replaced_by THEN
    UPDATE tickets t SET change_seq = 0 FROM receipts r
    WHERE r.client_id = NEW.client_id AND r.uuid IN (upper(NEW.replaced_by), upper(OLD.replaced_by)) AND t.receipt_id = r.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER receipts_touch_tickets AFTER UPDATE ON receipts
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION cc_touch_tickets_of_receipt();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cc_touch_ticket_by_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET change_seq = 0 WHERE id = NEW.ticket_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoice_requests_touch_ticket AFTER INSERT OR UPDATE ON invoice_requests
  FOR EACH ROW WHEN (NEW.ticket_id IS NOT NULL) EXECUTE FUNCTION cc_touch_ticket_by_id();
--> statement-breakpoint
CREATE TRIGGER ticket_reviews_touch_ticket AFTER INSERT OR UPDATE ON ticket_reviews
  FOR EACH ROW EXECUTE FUNCTION cc_touch_ticket_by_id();
--> statement-breakpoint
-- A payment CFDI changes how the paid invoice shows, in any account of the same owner.
CREATE OR REPLACE FUNCTION cc_touch_tickets_of_payment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p cfdi_payments;
BEGIN
  IF TG_OP = 'DELETE' THEN p := OLD; ELSE p := NEW; END IF;
  UPDATE tickets t SET change_seq = 0 FROM receipts r, clients k, clients mine
  WHERE mine.id = p.client_id AND k.user_id = mine.user_id AND r.client_id = k.id AND r.uuid = p.document_uuid AND t.receipt_id = r.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cfdi_payments_touch_tickets AFTER INSERT OR DELETE ON cfdi_payments
  FOR EACH ROW EXECUTE FUNCTION cc_touch_tickets_of_payment();
