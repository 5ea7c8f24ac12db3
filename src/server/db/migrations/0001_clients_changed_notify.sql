-- Announces every change to a user's tax accounts, so in-process caches of GET /user_clients stay exact
-- whoever writes (the API, a job, or plain SQL).
CREATE OR REPLACE FUNCTION cc_clients_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('clients_changed', OLD.user_id::text);
  ELSE
    PERFORM pg_notify('clients_changed', NEW.user_id::text);
    IF TG_OP = 'UPDATE' AND NEW.user_id <> OLD.user_id THEN
      PERFORM pg_notify('clients_changed', OLD.user_id::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER clients_changed_notify AFTER INSERT OR UPDATE OR DELETE ON clients
  FOR EACH ROW EXECUTE FUNCTION cc_clients_changed();
