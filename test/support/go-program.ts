/**
 * A Go program of the tests (a client built on the official Go SDK), built with `go build` into a
 * temporary folder once per test file that asks for it, or the reason it could not be: a test of
 * it is skipped, saying so, where Go or its modules cannot be had (the modules come from the Go
 * proxy; CI fetches them before the tests: .ci/run).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type GoProgram = { binary: string; remove(): void } | { skipped: string };

const built = new Map<string, GoProgram>();

/** The program whose `main` package is `source`, built (once here), or why it could not be. */
export function goProgram(source: string): GoProgram {
  let program = built.get(source);
  if (!program) {
    program = build(source);
    built.set(source, program);
  }
  return program;
}

function build(source: string): GoProgram {
  const dir = mkdtempSync(path.join(tmpdir(), `durable-mcp-${path.basename(source)}-`));
  const binary = path.join(dir, path.basename(source));
  try {
    // No VCS stamp: the build needs nothing of the checkout's git state (nor git's trust in its owner).
    execFileSync('go', ['build', '-buildvcs=false', '-o', binary, '.'], {
      cwd: source,
      stdio: 'pipe',
      timeout: 300_000,
    });
    return { binary, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const { code, stderr } = error as { code?: string; stderr?: Buffer };
    return {
      skipped:
        code === 'ENOENT'
          ? 'no `go` command on PATH'
          : `\`go build\` in ${source} failed (is github.com/modelcontextprotocol/go-sdk reachable through GOPROXY?): ${String(stderr ?? error).trim()}`,
    };
  }
}
