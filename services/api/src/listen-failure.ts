/**
 * Why the API could not listen, in one line that names the address and the variable that moves
 * it: a port another process holds is the usual reason (a second stack, an old one left running).
 */
import { StartError } from '../../../lib/start-error';

export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): StartError {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new StartError(
      `port ${port} (the API, ${where}) is in use by another process: set PORT to a free port (or stop the other process)`,
    );
  if (error.code === 'EACCES')
    return new StartError(`the API may not listen on ${where} (${error.code}): set PORT to a port above 1023`);
  if (error.code === 'EADDRNOTAVAIL')
    return new StartError(`the API cannot listen on ${where}: HOST ${host} is not an address of this machine`);
  return new StartError(`the API cannot listen on ${where}: ${error.message}`);
}
