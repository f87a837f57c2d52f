-- The delivery lease gets an owner (the connection holding it), so a connection renews and releases
-- only its own lease, and taking over an expired lease is one atomic UPDATE.
ALTER TABLE legacy_calls ADD COLUMN IF NOT EXISTS delivered_by text;
