-- A handler may ask the client's stream to close mid-call (SEP-1699 polling: the client
-- reconnects and resumes from its last event id), recorded in order with its other notifications.
ALTER TABLE exchange_events DROP CONSTRAINT IF EXISTS exchange_events_kind_check;
ALTER TABLE exchange_events ADD CONSTRAINT exchange_events_kind_check CHECK (kind IN ('progress', 'log', 'close-stream'));
