/**
 * Claims the ports `durable-mcp dev` opens before anything starts: each is checked, and the API's
 * is bound at once by the front door (dev/front-door), so that a client's connection waits while
 * the service starts. What is not free comes back as one line each, naming the port and the
 * variable that moves it.
 */
import type { Logger } from '../../lib/log';
import { commandFailure } from '../../lib/start-error';
import { devPorts, heldPortLine, invalidPort, isHeld, type DevPort } from './dev-ports';
import { openFrontDoor, type FrontDoor } from './front-door/front-door';

export type DevPortClaim = { ports: DevPort[]; frontDoor: FrontDoor } | { problems: string[] };

export async function claimDevPorts(
  env: NodeJS.ProcessEnv,
  host: string,
  door: { holdMs: number; retryAfterS: number; log: Logger },
): Promise<DevPortClaim> {
  const ports = devPorts(env);
  const invalid = ports.map(invalidPort).filter((line) => line !== undefined);
  if (invalid.length) return { problems: invalid };
  const held: string[] = [];
  for (const port of ports.slice(1)) if (await isHeld(port)) held.push(heldPortLine(port));
  let frontDoor: FrontDoor | undefined;
  try {
    frontDoor = await openFrontDoor({
      host,
      port: ports[0]!.port,
      holdMs: Number(env.HTTP_WAIT_MS) || door.holdMs,
      retryAfterS: door.retryAfterS,
      log: door.log,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE')
      held.push(`the API's port is not free: ${commandFailure(error)}`);
    else held.unshift(heldPortLine(ports[0]!));
  }
  if (held.length) {
    await frontDoor?.close();
    return { problems: held };
  }
  return { ports, frontDoor: frontDoor! };
}
