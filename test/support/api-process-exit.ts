/**
 * The API process (`cli/start/api-main.ts`) started with `env` on top of the test's own and run
 * to its end, silent but for its stderr: how a start that must fail is seen to fail, in one line.
 */
import { spawn } from 'node:child_process';
import { projectRoot } from '../../lib/paths';
import { exitOf } from './process-exit';

export function apiProcessExit(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/start/api-main.ts'], {
    cwd: projectRoot(),
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return exitOf(child);
}
