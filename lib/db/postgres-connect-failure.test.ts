import { describePostgresFailure } from './postgres-connect-failure';
import { startFailure } from '../start-error';

const URL_WITH_SECRET = 'postgres://mcp:s3cret-pw@db.internal:6543/mcp';
const failure = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('a start that cannot reach Postgres', () => {
  it.each([
    ['ECONNREFUSED', /nothing listens there: is Postgres running/],
    ['ENOTFOUND', /the host does not resolve/],
    ['28P01', /the password was refused/],
    ['3D000', /the database does not exist/],
    ['ETIMEDOUT', /no answer/],
  ])('says in one line where and why (%s), naming DATABASE_URL but never its password', (code, reason) => {
    const line = startFailure(describePostgresFailure(URL_WITH_SECRET, failure(code)));
    expect(line).toMatch(/^Postgres at db\.internal:6543\/mcp \(DATABASE_URL\) could not be reached: /);
    expect(line).toMatch(reason);
    expect(line).not.toContain('s3cret-pw');
    expect(line).not.toContain('\n');
  });

  it('keeps the first line of an error it has no words for, and the default port', () => {
    const line = describePostgresFailure('postgres://localhost/mcp', failure('XX000', 'odd\n    at frame')).message;
    expect(line).toBe('Postgres at localhost:5432/mcp (DATABASE_URL) could not be reached: odd');
  });
});
