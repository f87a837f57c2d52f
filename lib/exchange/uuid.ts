/**
 * The shape of an exchange id (a UUID, as `randomUUID()` writes it), checked before a lookup so a
 * malformed id never reaches Postgres's `uuid` type as an error. `UUID` takes the lower case ids
 * the service mints and hands out; `UUID_ANY_CASE` also takes what a person may type.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UUID_ANY_CASE = new RegExp(UUID.source, 'i');
