/**
 * Why a Temporal dev server exited before it served, read from the output it wrote: the CLI's own
 * error line (`Error: can't set UI port 8233: listen tcp 127.0.0.1:8233: bind: address already in
 * use`) rather than "see the log", and the port it found taken, so the caller can pick another
 * when the port was its own choice and not the user's.
 */
import { StartError } from '../../../lib/start-error';

export class TemporalDevServerExited extends StartError {
  override readonly name = 'TemporalDevServerExited';
  constructor(
    message: string,
    /** The port another process held, when that is why it exited. */
    readonly portInUse?: number,
  ) {
    super(message);
  }
}

const PORT_IN_USE = /listen tcp \S*:(\d+): bind: address already in use/;
/** The CLI's fatal line, else the last error its server logged (text or JSON log format). */
const CLI_ERROR = /^Error: /;
const LOGGED_ERROR = /level=(ERROR|FATAL)|"level":"(error|fatal)"/;

/** The error for a dev server that exited (`how`: its exit code or signal) having written `output`. */
export function devServerExit(how: string, output: string, logFile: string): TemporalDevServerExited {
  const lines = output.split('\n').map((line) => line.trim());
  const reason =
    lines.find((line) => CLI_ERROR.test(line)) ?? [...lines].reverse().find((line) => LOGGED_ERROR.test(line));
  const port = PORT_IN_USE.exec(output)?.[1];
  return new TemporalDevServerExited(
    `Temporal dev server exited (${how})${reason ? `: ${reason}` : ''}; see ${logFile}`,
    port === undefined ? undefined : Number(port),
  );
}
