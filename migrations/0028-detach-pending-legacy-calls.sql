-- A handshake-era call whose wait outlasts its client's request timeout is answered with the
-- pending result (services/api/src/legacy/pending-call.ts) and detached: its exchange runs on, and
-- its outcome goes to whoever awaits it (`await_answer`, or the same call again), never to the
-- session's standing GET stream, which would send the client's open requests a second time.
-- `detached_through` is the last event of its stream a delivery had written when it answered
-- pending: the requests up to it are with the client already, and an await does not send them again.
ALTER TABLE legacy_calls
  ADD COLUMN IF NOT EXISTS detached_at timestamptz,
  ADD COLUMN IF NOT EXISTS detached_through bigint;
