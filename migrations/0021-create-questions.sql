-- Questions: the elicitations a handler addressed to someone other than the caller (elicitFrom),
-- one row per key of an addressed ask, written by the worker in the transaction that records the
-- ask. What the answer page and the answer API list and show, and where the first admitted answer
-- is claimed (under the row's lock) before it is signalled to the exchange's workflow.
CREATE TABLE IF NOT EXISTS questions (
  id               text        PRIMARY KEY,
  exchange_id      uuid        NOT NULL REFERENCES exchanges (id) ON DELETE CASCADE,
  round            integer     NOT NULL CHECK (round >= 1),
  key              text        NOT NULL,
  method           text        NOT NULL,
  target           text        NOT NULL,
  arguments        jsonb       NOT NULL,
  caller           jsonb       NOT NULL,
  message          text        NOT NULL,
  requested_schema jsonb       NOT NULL,
  addressing       jsonb       NOT NULL,
  -- answererKey() of each first addressee, and of each the escalation adds once escalate_at passes:
  -- an answerer's inbox is the waiting questions whose keys meet identityKeys() of theirs.
  addressee_keys   text[]      NOT NULL,
  escalation_keys  text[]      NOT NULL DEFAULT '{}',
  escalate_at      timestamptz,
  asked_at         timestamptz NOT NULL,
  deadline_at      timestamptz NOT NULL,
  shown_digest     text        NOT NULL,
  status           text        NOT NULL DEFAULT 'waiting'
                   CHECK (status IN ('waiting', 'answered', 'expired', 'cancelled')),
  -- Refused attempts beyond the recorded budget are only counted.
  refused_unrecorded integer   NOT NULL DEFAULT 0,
  UNIQUE (exchange_id, round, key)
);

CREATE INDEX IF NOT EXISTS questions_waiting_addressees_idx ON questions USING gin (addressee_keys)
  WHERE status = 'waiting';
CREATE INDEX IF NOT EXISTS questions_waiting_escalations_idx ON questions USING gin (escalation_keys)
  WHERE status = 'waiting';

-- Every attempt to answer a question, taken or refused (a refused one leaves no trace in Temporal's
-- history): who, when, through what, and why it was refused. A taken answer keeps its result until
-- its signal is confirmed (signalled_at), so an API that dies between the claim and the signal has
-- its answer signalled by another.
CREATE TABLE IF NOT EXISTS question_answers (
  id            text        PRIMARY KEY,
  question_id   text        NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
  answerer_id   text        NOT NULL,
  answerer      jsonb       NOT NULL,
  via           text        NOT NULL CHECK (via IN ('page', 'api', 'harness')),
  at            timestamptz NOT NULL DEFAULT now(),
  action        text,
  taken         boolean     NOT NULL,
  refusal       text,
  slot          integer,
  response      jsonb,
  signalled_at  timestamptz
);

CREATE INDEX IF NOT EXISTS question_answers_question_idx ON question_answers (question_id, at);
CREATE INDEX IF NOT EXISTS question_answers_unsignalled_idx ON question_answers (at)
  WHERE taken AND signalled_at IS NULL;
