-- The running-exchange budget (MAX_RUNNING_EXCHANGES) is checked on every first leg. Counting the
-- running rows there costs a scan that grows with the exchanges open; instead these counters are
-- kept by triggers, in the transaction that opens, ends or removes an exchange, whichever statement
-- does it: the sum over the slots is exactly the number of running rows, after any crash, on every
-- replica. An exchange counts in the slot a hash of its id picks, so concurrent openings and
-- endings seldom wait on one row's lock.
CREATE TABLE IF NOT EXISTS exchange_running_counts (
  slot     smallint PRIMARY KEY CHECK (slot BETWEEN 0 AND 15),
  running  bigint   NOT NULL
);

CREATE OR REPLACE FUNCTION exchange_running_slot(id uuid) RETURNS smallint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT (hashtext(id::text) & 15)::smallint $$;

CREATE OR REPLACE FUNCTION count_running_exchanges() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE exchange_running_counts SET running = 0;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'running' THEN
    UPDATE exchange_running_counts SET running = running - 1 WHERE slot = exchange_running_slot(OLD.id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'running' THEN
    UPDATE exchange_running_counts SET running = running + 1 WHERE slot = exchange_running_slot(NEW.id);
  END IF;
  RETURN NULL;
END
$$;

-- Creating a trigger locks out every write to exchanges until this migration commits, so the
-- counts taken below cannot change under it, and every write after it is counted.
CREATE OR REPLACE TRIGGER exchanges_count_running_inserted AFTER INSERT ON exchanges
  FOR EACH ROW WHEN (NEW.status = 'running') EXECUTE FUNCTION count_running_exchanges();
CREATE OR REPLACE TRIGGER exchanges_count_running_updated AFTER UPDATE OF status, id ON exchanges
  FOR EACH ROW WHEN ((OLD.status = 'running' OR NEW.status = 'running') AND (OLD.status <> NEW.status OR OLD.id <> NEW.id))
  EXECUTE FUNCTION count_running_exchanges();
CREATE OR REPLACE TRIGGER exchanges_count_running_deleted AFTER DELETE ON exchanges
  FOR EACH ROW WHEN (OLD.status = 'running') EXECUTE FUNCTION count_running_exchanges();
CREATE OR REPLACE TRIGGER exchanges_count_running_truncated AFTER TRUNCATE ON exchanges
  FOR EACH STATEMENT EXECUTE FUNCTION count_running_exchanges();

INSERT INTO exchange_running_counts (slot, running)
  SELECT slot, count(x.id) FROM generate_series(0, 15) AS slot
    LEFT JOIN exchanges x ON x.status = 'running' AND exchange_running_slot(x.id) = slot
  GROUP BY slot
  ON CONFLICT (slot) DO UPDATE SET running = EXCLUDED.running;

