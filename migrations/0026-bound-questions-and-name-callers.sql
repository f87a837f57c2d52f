-- Questions waiting, by caller: each addressed ask counts its caller's waiting questions under a
-- lock on that caller (MAX_WAITING_QUESTIONS_PER_PRINCIPAL, lib/db/waiting-questions-pg.ts), and an
-- inbox lists what waits round robin by caller (MAX_LISTED_QUESTIONS): both read the waiting rows
-- by the caller's key, the person behind it whatever client it called through (CALLER_KEY_SQL).
CREATE INDEX IF NOT EXISTS questions_waiting_caller_idx
  ON questions ((coalesce(caller->>'personId', caller->>'id'))) WHERE status = 'waiting';

-- A claimed answer whose signal failed (its workflow refused it, Temporal was down) is tried again
-- later, each time later (services/api/src/answers/answer-resignal.ts), so one that keeps failing
-- neither holds up the others nor is retried in a loop.
ALTER TABLE question_answers
  ADD COLUMN IF NOT EXISTS signal_failures integer NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS signal_retry_at timestamptz;

-- The caller's display name (its token's `name`) and email (only when `email_verified`), shown
-- beside its key by the admin API and `durable-mcp exchanges`, never instead of it. Bounded.
ALTER TABLE exchanges
  ADD COLUMN IF NOT EXISTS principal_name text,
  ADD COLUMN IF NOT EXISTS principal_email text;
