-- The gateway's policy decisions (a call a policy denies; a decision point's forward, deny or
-- approval, or its failure), recorded by the worker in the round that decides, at most once per
-- exchange and round: the first recorded stands, and a repeat of the round (an activity retried,
-- a worker that died) acts on it instead of deciding again (lib/db/gateway-decisions-pg.ts).
-- The worker holds no evidence key, so it records the facts only; the API signs each into the
-- evidence log and notes the entry's seq here (`signed_seq`). `facts` is `json`, not `jsonb`:
-- kept as written (a decision point's reason may hold any character).
-- No foreign key: a decision outlives its exchange's records until it is signed.
CREATE TABLE IF NOT EXISTS gateway_decisions (
  exchange_id uuid        NOT NULL,
  round       integer     NOT NULL CHECK (round >= 1),
  facts       json        NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  signed_seq  bigint,
  PRIMARY KEY (exchange_id, round)
);

CREATE INDEX IF NOT EXISTS gateway_decisions_unsigned_idx ON gateway_decisions (recorded_at) WHERE signed_seq IS NULL;

-- An entry of the log is an answer's (answer_id, taken) or a gateway decision's (decision_round):
-- one entry per exchange and round, whatever signs it twice.
ALTER TABLE evidence_entries
  ALTER COLUMN answer_id DROP NOT NULL,
  ALTER COLUMN taken DROP NOT NULL,
  ADD COLUMN IF NOT EXISTS decision_round integer;

DO $$
BEGIN
  ALTER TABLE evidence_entries ADD CONSTRAINT evidence_entries_one_kind
    CHECK ((answer_id IS NOT NULL AND taken IS NOT NULL AND decision_round IS NULL)
        OR (answer_id IS NULL AND taken IS NULL AND decision_round IS NOT NULL));
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

CREATE UNIQUE INDEX IF NOT EXISTS evidence_entries_decision_idx
  ON evidence_entries (exchange_id, decision_round) WHERE decision_round IS NOT NULL;
