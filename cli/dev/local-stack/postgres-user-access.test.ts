import { checkPostgresUserAccess, closedFolderOnTheWay } from './postgres-user-access';

/** A file system where `/root` is 700 and everything else 755. */
const stat = (file: string) => ({ mode: file === '/root' ? 0o40700 : 0o40755 });

describe('whether the postgres OS user can reach what the embedded Postgres needs', () => {
  it('finds the first folder others cannot enter on the way', () => {
    expect(closedFolderOnTheWay('/root/project/node_modules/pg/bin', stat)).toBe('/root');
    expect(closedFolderOnTheWay('/srv/project/.durable-mcp', stat)).toBeUndefined();
  });

  it('says, as root, in one line what to do', () => {
    const asRoot = jest.spyOn(process, 'getuid').mockReturnValue(0);
    try {
      expect(() => checkPostgresUserAccess('/root/p/node_modules/x/bin/postgres', '/srv/data', stat)).toThrow(
        'as root, the embedded Postgres runs as the OS user postgres, who cannot enter /root to reach its binaries (/root/p/node_modules/x/bin): run as another user, make it enterable (chmod o+x /root), or keep the project and its --data-dir outside it',
      );
      expect(() => checkPostgresUserAccess('/srv/p/bin/postgres', '/root/project/data', stat)).toThrow(
        /its data folder/,
      );
      expect(() => checkPostgresUserAccess('/srv/p/bin/postgres', '/srv/data', stat)).not.toThrow();
      // The data folder itself is Postgres's own, closed to others: only the way to it counts.
      const ownDataFolder = (file: string) => ({ mode: file === '/srv/data' ? 0o40700 : 0o40755 });
      expect(() => checkPostgresUserAccess('/srv/p/bin/postgres', '/srv/data', ownDataFolder)).not.toThrow();
    } finally {
      asRoot.mockRestore();
    }
  });

  it('checks nothing for another user, who runs Postgres as themself', () => {
    const asUser = jest.spyOn(process, 'getuid').mockReturnValue(1000);
    try {
      expect(() => checkPostgresUserAccess('/root/p/bin/postgres', '/root/data', stat)).not.toThrow();
    } finally {
      asUser.mockRestore();
    }
  });
});
