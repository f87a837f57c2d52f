import { Writable } from 'node:stream';
import pino from 'pino';
import { logSignInWithoutGroups } from './no-groups-log';

/** A logger whose lines land in `lines`, parsed. */
function capturing() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

describe('the log line of a sign-in without groups', () => {
  const reading = { groupsClaim: 'groups', scopes: ['openid', 'profile', 'email'] };

  it('names the claim read and the scopes asked, and says what to check', () => {
    const { log, lines } = capturing();
    logSignInWithoutGroups(log, { id: 'https://dex.example.com|CiQx', groups: [] }, reading);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      answerer: 'https://dex.example.com|CiQx',
      groupsClaim: 'groups',
      scopes: 'openid profile email',
    });
    expect(lines[0]!.msg).toContain('answer sign-in brought no groups');
    expect(lines[0]!.msg).toContain('"groups" claim');
    expect(lines[0]!.msg).toContain('ANSWER_OIDC_SCOPES');
    expect(lines[0]!.msg).toContain('ANSWER_GROUPS_CLAIM');
  });

  it('says nothing of a sign-in that brought groups', () => {
    const { log, lines } = capturing();
    logSignInWithoutGroups(log, { id: 'p', groups: ['finance'] }, reading);
    expect(lines).toHaveLength(0);
  });
});
