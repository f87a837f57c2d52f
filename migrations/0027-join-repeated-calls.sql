-- A call repeated while the first still runs joins it instead of asking its person again
-- (services/api/src/exchange-legs/start-leg.ts): by its idempotency key (the SEP-3182 draft's
-- `params.idempotencyKey`), one exchange per caller and key for as long as the row is kept; or, for
-- an identical call without a key (same method, target and arguments: `call_digest`), one running
-- exchange per caller and call, while it is `reattachable` (its tool allows it, and it started within
-- REATTACH_IDENTICAL_CALLS_MS). Both are unique, so two repeats racing each other start one exchange.
ALTER TABLE exchanges
  ADD COLUMN IF NOT EXISTS call_digest text,
  ADD COLUMN IF NOT EXISTS idempotency_key text,
  ADD COLUMN IF NOT EXISTS reattachable boolean NOT NULL DEFAULT false;

CREATE UNIQUE INDEX IF NOT EXISTS exchanges_idempotency_key_idx
  ON exchanges (principal, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE UNIQUE INDEX IF NOT EXISTS exchanges_running_call_idx
  ON exchanges (principal, call_digest) WHERE status = 'running' AND reattachable;
