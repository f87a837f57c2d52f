/**
 * A container's probes as the kubelet runs them: `httpGet` (a status from 200 to 399 passes)
 * and `tcpSocket` (a connection is accepted) against the pod's address, a named port resolved
 * from the container's ports, each bounded by `timeoutSeconds` (1 unless set).
 */
import http from 'node:http';
import net from 'node:net';

export interface Probe {
  httpGet?: { path?: string; port: string | number; scheme?: string };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
  successThreshold?: number;
  initialDelaySeconds?: number;
}

export const periodMs = (probe: Probe) => (probe.periodSeconds ?? 10) * 1000;
export const failureThreshold = (probe: Probe) => probe.failureThreshold ?? 3;

function portOf(port: string | number, ports: Record<string, number>): number {
  if (typeof port === 'number') return port;
  const found = ports[port];
  if (found === undefined) throw new Error(`probe names port ${port}, which the container does not declare`);
  return found;
}

/** Runs `probe` once against `ip`: whether it passed. */
export function runProbe(probe: Probe, ip: string, ports: Record<string, number>): Promise<boolean> {
  const timeout = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.httpGet) {
    if ((probe.httpGet.scheme ?? 'HTTP') !== 'HTTP') throw new Error('only HTTP probes are run here');
    const port = portOf(probe.httpGet.port, ports);
    return new Promise((resolve) => {
      // The kubelet names the pod by its address, as here.
      const request = http.get({ host: ip, port, path: probe.httpGet!.path ?? '/', timeout, agent: false }, (res) => {
        res.resume();
        resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 400);
      });
      request.on('timeout', () => request.destroy());
      request.on('error', () => resolve(false));
    });
  }
  if (probe.tcpSocket) {
    const port = portOf(probe.tcpSocket.port, ports);
    return new Promise((resolve) => {
      const socket = net.connect({ host: ip, port, timeout });
      const done = (passed: boolean) => {
        socket.destroy();
        resolve(passed);
      };
      socket.once('connect', () => done(true));
      socket.once('timeout', () => done(false));
      socket.once('error', () => done(false));
    });
  }
  throw new Error(`a probe kind not run here: ${Object.keys(probe).join(', ')}`);
}
