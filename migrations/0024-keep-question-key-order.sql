-- A question's requested schema and the call's arguments as the handler and the caller wrote them:
-- `jsonb` keeps an object's keys in an order of its own (shortest first), so the answer page and the
-- answer API showed a form's fields, and a call's arguments, out of their author's order (a required
-- field last). `json` keeps the text as written. Rows written before keep the order jsonb gave them.
ALTER TABLE questions
  ALTER COLUMN requested_schema TYPE json USING requested_schema::json,
  ALTER COLUMN arguments TYPE json USING arguments::json;
