/**
 * Dex's subjects. Dex writes `sub` as the unpadded base64url of a protobuf message `{ 1: user id,
 * 2: connector id }` (its `internal.IDTokenSubject`), for people and services alike. A token of
 * its client-credentials grant (in Dex since v2.46's development line, opt-in) has the client as
 * the user and no connector: `sub` is the encoding of `{ 1: <client id> }` while `azp` names the
 * client in plain text, so "its `sub` is its client" (token-claims.ts `serviceTokenOf`) would
 * never hold, and a bot's token would be taken for a person's and refused at the answer API.
 *
 * A person's subject at Dex always names a connector (Dex refuses an empty connector id), so a
 * subject that decodes to exactly `{ 1: client }` is the client's own token. Another issuer would
 * have to choose this very encoding of the token's own client as its subject to match, which
 * says the same thing. Pure.
 */

/** The protobuf encoding of `{ 1: value }`: tag 0x0a (field 1, length-delimited), varint length, bytes. */
function field1(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const length: number[] = [];
  for (let n = bytes.length; ; n >>>= 7) {
    if (n < 0x80) {
      length.push(n);
      break;
    }
    length.push((n & 0x7f) | 0x80);
  }
  return Buffer.concat([Buffer.from([0x0a, ...length]), bytes]);
}

/**
 * Whether `sub` is Dex's subject of `clientId` itself (no connector): what its client-credentials
 * grant writes. Also taken with the empty connector field written out (`12 00`), which an encoder
 * other than Go's may emit.
 */
export function isDexClientSubject(sub: string, clientId: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(sub) || clientId.length === 0) return false;
  const decoded = Buffer.from(sub, 'base64url');
  // base64url decoding forgives what is not canonical; only the exact encoding counts.
  if (decoded.toString('base64url') !== sub) return false;
  const expected = field1(clientId);
  return decoded.equals(expected) || decoded.equals(Buffer.concat([expected, Buffer.from([0x12, 0x00])]));
}
