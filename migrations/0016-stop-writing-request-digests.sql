-- The request digest a requestState is bound to is checked against the sealed state itself, never
-- against this row, so the service no longer writes it here. The column stays, nullable, while a
-- release that still writes it may run beside this one against the same database (a rolling
-- upgrade); a later migration drops it.
ALTER TABLE exchanges ALTER COLUMN request_digest DROP NOT NULL;
