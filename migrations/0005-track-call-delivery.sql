-- Which calls have a live delivery: the connection delivering a call's stream (its POST, or a
-- GET that resumed it) keeps extending this lease. A plain GET stream takes over only calls whose
-- lease ran out, so a client is never sent the same server-to-client request on two streams.
ALTER TABLE legacy_calls ADD COLUMN IF NOT EXISTS delivering_until timestamptz;
