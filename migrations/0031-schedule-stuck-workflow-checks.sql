-- The stuck workflow sweep (lib/exchange-client/stuck-workflow-sweeper.ts) asks Temporal whether a
-- running exchange's workflow tasks keep failing. It asks only about exchanges whose row has not
-- moved for STUCK_WORKFLOW_AFTER_MS, and about each of those no more often than this column lets
-- it: the time the exchange may next be asked about, set as each sweep claims it (NULL: not asked
-- yet). The partial index gives a sweep the exchanges that are due, in order, without reading the
-- finished ones kept for retention or the running ones it asked about a moment ago.
ALTER TABLE exchanges ADD COLUMN IF NOT EXISTS stuck_check_at timestamptz;

CREATE INDEX IF NOT EXISTS exchanges_stuck_check_idx ON exchanges (stuck_check_at NULLS FIRST, updated_at)
  WHERE status = 'running';
