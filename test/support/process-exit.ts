/** A child process run to its end: its exit code and what it wrote to stderr, killed after `timeoutMs`. */
import type { ChildProcess } from 'node:child_process';

export function exitOf(child: ChildProcess, timeoutMs = 60_000): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
