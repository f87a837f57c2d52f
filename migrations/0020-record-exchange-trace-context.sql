-- The W3C trace context (traceparent, tracestate) of the leg that started each exchange, written
-- with its row by the API when traces are on, so every later leg of the exchange (a retry with
-- answers, a legacy response, tasks/update), on any replica, links its span to the trace
-- that holds the exchange's workflow and rounds. Nullable: traces off, rows written before this
-- migration, or by a release beside it that does not know the columns (a rolling upgrade).
ALTER TABLE exchanges ADD COLUMN IF NOT EXISTS traceparent text;
ALTER TABLE exchanges ADD COLUMN IF NOT EXISTS tracestate text;
