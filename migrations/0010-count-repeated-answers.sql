-- How many times a client repeated its answer to a server-to-client request: each repeat is
-- signalled again (the first signal may not have landed) up to MAX_REPEATED_ANSWERS, then dropped.
ALTER TABLE legacy_open_requests ADD COLUMN IF NOT EXISTS repeats integer NOT NULL DEFAULT 0;

