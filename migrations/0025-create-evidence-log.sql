-- The evidence log: one entry per decision on a question (an answer taken, a refusal recorded),
-- appended in the transaction that claims or refuses it (lib/db/evidence-log-pg.ts), as a JWS
-- signed by the deployment's evidence key (EVIDENCE_SIGNING_KEYS). Each entry links to the one
-- before it in the whole log (seq, prev) and in its exchange (exchange_seq, exchange_prev), so a
-- change, a removal or an insertion shows when an export is verified with the published keys.
-- No foreign key: evidence outlives the exchange's own records (retention never deletes it).
CREATE TABLE IF NOT EXISTS evidence_entries (
  seq           bigint      PRIMARY KEY CHECK (seq >= 1),
  prev          text,
  exchange_id   uuid        NOT NULL,
  exchange_seq  integer     NOT NULL CHECK (exchange_seq >= 1),
  exchange_prev text,
  -- The decision it records: the attempt's row (question_answers.id) and whether it was taken.
  answer_id     text        NOT NULL UNIQUE,
  taken         boolean     NOT NULL,
  logged_at     timestamptz NOT NULL,
  jws           text        NOT NULL,
  hash          text        NOT NULL UNIQUE,
  UNIQUE (exchange_id, exchange_seq)
);

CREATE INDEX IF NOT EXISTS evidence_entries_logged_at_idx ON evidence_entries (logged_at);

-- The log's head: the last entry's seq and hash, one row, locked FOR UPDATE by each append, so
-- appends are serialized (no two entries share a seq or a prev) and the chain goes on even after
-- old entries are archived and deleted.
CREATE TABLE IF NOT EXISTS evidence_head (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  seq      bigint  NOT NULL,
  hash     text
);
INSERT INTO evidence_head (only_row, seq, hash) VALUES (true, 0, NULL) ON CONFLICT DO NOTHING;
