-- The quotas of calls (QUOTA_CALLS_PER_*, QUOTAS_FILE): one counter per quota key (its rule, the
-- principal or tenant it counts, and the tool when the rule counts each tool apart) and window
-- length, in fixed windows aligned on the epoch (a minute starts at :00, a day at 00:00 UTC). A
-- counter is one row for its key and window length, whatever the window: the first take in a new
-- window resets it, so a key that keeps calling never adds rows, and the worker's retention sweep
-- deletes the rows whose window ended (lib/db/retention.ts). Shared by every API replica.
CREATE TABLE IF NOT EXISTS quota_counters (
  key          text        NOT NULL,
  window_s     integer     NOT NULL CHECK (window_s > 0),
  window_start timestamptz NOT NULL,
  resets_at    timestamptz NOT NULL,
  calls        integer     NOT NULL CHECK (calls >= 0),
  PRIMARY KEY (key, window_s)
);

CREATE INDEX IF NOT EXISTS quota_counters_resets_idx ON quota_counters (resets_at);

-- Takes one call from every counter named (keys[i] in windows of windows[i] seconds, at most
-- limits[i] calls a window), all or none, by the database's clock, in one statement: each counter
-- is locked in (key, window) order, so concurrent takes never deadlock and none passes a limit.
-- Returns one row: `refused` the 1-based index of the first counter that is full (nothing
-- counted), or NULL when every counter took the call; that counter's calls and window start, and
-- the time the take was made at.
CREATE OR REPLACE FUNCTION quota_take(keys text[], windows integer[], limits integer[])
  RETURNS TABLE (refused integer, calls integer, window_start timestamptz, taken_at timestamptz)
  LANGUAGE plpgsql
  AS $$
DECLARE
  at timestamptz := clock_timestamp();
  i integer;
  started timestamptz;
  counted integer;
BEGIN
  FOR i IN SELECT u.o FROM unnest(keys, windows) WITH ORDINALITY AS u(k, w, o) ORDER BY u.k, u.w LOOP
    started := to_timestamp(floor(extract(epoch FROM at) / windows[i]) * windows[i]);
    -- A counter of an ended window starts again at zero (its row is reused, never added to).
    INSERT INTO quota_counters AS c (key, window_s, window_start, resets_at, calls)
      VALUES (keys[i], windows[i], started, started + make_interval(secs => windows[i]), 0)
      ON CONFLICT (key, window_s) DO UPDATE
        SET window_start = EXCLUDED.window_start, resets_at = EXCLUDED.resets_at, calls = 0
        WHERE c.window_start < EXCLUDED.window_start;
    SELECT c.calls INTO counted FROM quota_counters c
      WHERE c.key = keys[i] AND c.window_s = windows[i] FOR UPDATE;
    IF counted >= limits[i] THEN
      RETURN QUERY SELECT i, counted, started, at;
      RETURN;
    END IF;
  END LOOP;
  UPDATE quota_counters c SET calls = c.calls + 1
    FROM unnest(keys, windows) AS u(k, w)
    WHERE c.key = u.k AND c.window_s = u.w;
  RETURN QUERY SELECT NULL::integer, NULL::integer, NULL::timestamptz, at;
END
$$;

-- Gives back a call taken at `taken_at` (quota_take) whose exchange then did not start (a capacity
-- budget refused it, or Temporal did): each counter still in that window loses one call.
CREATE OR REPLACE FUNCTION quota_give_back(keys text[], windows integer[], taken_at timestamptz)
  RETURNS void
  LANGUAGE sql
  AS $$
  UPDATE quota_counters c SET calls = c.calls - 1
    FROM unnest(keys, windows) AS u(k, w)
    WHERE c.key = u.k AND c.window_s = u.w AND c.calls > 0
      AND c.window_start = to_timestamp(floor(extract(epoch FROM taken_at) / u.w) * u.w);
$$;
