-- A question addressed to the caller is sent to the caller's client as a URL-mode elicitation;
-- the client's decline or cancel of it is the caller's answer, recorded as having come through
-- the client ('client'), beside the answer page, the answer API and the test harness.
ALTER TABLE question_answers DROP CONSTRAINT question_answers_via_check;
ALTER TABLE question_answers ADD CONSTRAINT question_answers_via_check
  CHECK (via IN ('page', 'api', 'client', 'harness'));
