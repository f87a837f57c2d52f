import { StartError } from '../../../lib/start-error';
import { devServerExit, TemporalDevServerExited } from './dev-server-exit';

describe('devServerExit', () => {
  it("names the CLI's error line and the port another process holds", () => {
    const output = [
      'some startup line',
      "Error: can't set UI port 8233: listen tcp 127.0.0.1:8233: bind: address already in use",
      '',
    ].join('\n');
    const exit = devServerExit('code 1', output, '/data/temporal.log');
    expect(exit).toBeInstanceOf(TemporalDevServerExited);
    expect(exit).toBeInstanceOf(StartError);
    expect(exit.message).toBe(
      "Temporal dev server exited (code 1): Error: can't set UI port 8233: listen tcp 127.0.0.1:8233: bind: " +
        'address already in use; see /data/temporal.log',
    );
    expect(exit.portInUse).toBe(8233);
  });

  it("falls back to the server's last logged error, with no port when none was taken", () => {
    const output = [
      'time=1 level=ERROR msg="first" error="x"',
      'time=2 level=INFO msg="between"',
      'time=3 level=ERROR msg="unable to open database file"',
    ].join('\n');
    const exit = devServerExit('code 1', output, 'log');
    expect(exit.message).toBe(
      'Temporal dev server exited (code 1): time=3 level=ERROR msg="unable to open database file"; see log',
    );
    expect(exit.portInUse).toBeUndefined();
  });

  it('says only how it exited when it wrote nothing useful', () => {
    expect(devServerExit('signal SIGKILL', '', 'log').message).toBe(
      'Temporal dev server exited (signal SIGKILL); see log',
    );
  });
});
