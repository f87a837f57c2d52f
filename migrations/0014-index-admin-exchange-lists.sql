-- The admin view (GET /admin/exchanges) lists exchanges newest first, one page at a time, keyed on
-- (created_at, id) so a page never skips or repeats a row. Running exchanges (the usual question:
-- what is waiting on a person?) have a partial index of their own, so listing them does not walk
-- past every finished exchange kept for retention.
CREATE INDEX IF NOT EXISTS exchanges_created_idx ON exchanges (created_at, id);
CREATE INDEX IF NOT EXISTS exchanges_running_created_idx ON exchanges (created_at, id) WHERE status = 'running';

-- Logs name a legacy session by a tag (the first 12 hex digits of the SHA-256 of its id,
-- lib/log.ts sessionRef), never by the id, which is the client's credential. The admin view shows
-- and filters by that same tag. convert_to is only STABLE in general, but with a fixed target
-- encoding it always gives the same bytes, so the tag may be indexed.
CREATE OR REPLACE FUNCTION mcp_session_tag(session_id text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT left(encode(sha256(convert_to(session_id, 'UTF8')), 'hex'), 12) $$;

CREATE INDEX IF NOT EXISTS legacy_calls_session_tag_idx ON legacy_calls (mcp_session_tag(session_id));
