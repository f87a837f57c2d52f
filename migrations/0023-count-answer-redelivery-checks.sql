-- A retried answer (a 2026-07-28 leg coming back with the same inputResponses, a tasks/update of a
-- key already answered) makes the API ask the workflow whether it has the answer, a query that can
-- replay a whole history. Each such check is counted here, per round, before it is made, and past
-- MAX_REPEATED_ANSWERS no more are made for that round: the retry is answered from what is recorded.
ALTER TABLE exchange_rounds ADD COLUMN IF NOT EXISTS redelivery_checks integer NOT NULL DEFAULT 0;
