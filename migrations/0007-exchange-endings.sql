-- Every exchange ends with a recorded outcome, including those Temporal ended without the workflow
-- recording one (terminate, timeout, reset, retention): the API records those as 'terminated'.
ALTER TABLE exchanges DROP CONSTRAINT IF EXISTS exchanges_status_check;
ALTER TABLE exchanges ADD CONSTRAINT exchanges_status_check
  CHECK (status IN ('running', 'completed', 'failed', 'expired', 'capped', 'cancelled', 'terminated'));

-- An ask's deadline: the API refuses answers after it before signalling, and the workflow refuses
-- answers signalled after it whatever order an activation applies the timer and the signal in.
ALTER TABLE exchange_rounds ADD COLUMN IF NOT EXISTS deadline_at timestamptz;
