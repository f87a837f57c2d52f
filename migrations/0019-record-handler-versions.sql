-- Each exchange records the version of the handlers that started it (`demo@0.1.0`,
-- `acme-tools@1.2.0`, `tools.js@sha256:1a2b3c4d5e6f`), written with its row, so an operator sees
-- which version each exchange runs on and which exchanges an old version still holds. Nullable:
-- rows written before this migration, or by a release beside it that does not know the column
-- (a rolling upgrade), have none.
ALTER TABLE exchanges ADD COLUMN IF NOT EXISTS handler_version text;
