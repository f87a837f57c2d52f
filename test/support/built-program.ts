/**
 * A program of the tests built by its own toolchain: a client on the official Go SDK (`go build`)
 * or on the official Rust SDK (`cargo build`), built into a temporary folder once per test file
 * that asks for it, or the reason it could not be: a test of it is skipped, saying so, where the
 * toolchain or the SDK cannot be had (the SDKs come from the Go proxy and crates.io; CI fetches
 * and builds them before the tests: .ci/run).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

export type BuiltProgram = { binary: string; remove(): void } | { skipped: string };

/**
 * Where cargo builds (.ci/run builds into the same folder, so the tests' builds find it done):
 * outside the checkout, which stays clean, and kept between runs, as Go's build cache is.
 */
export const CARGO_TARGET_DIR = path.join(homedir(), '.cache', 'durable-mcp', 'cargo-target');

interface Toolchain {
  command: 'go' | 'cargo';
  /** Where its SDK comes from, for the reason a build failed. */
  sdkFrom: string;
  /** Builds the program whose sources are in `source` to `binary`. */
  build(source: string, binary: string): void;
}

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: 'pipe', timeout: 600_000 });

const go: Toolchain = {
  command: 'go',
  sdkFrom: 'is github.com/modelcontextprotocol/go-sdk reachable through GOPROXY?',
  // No VCS stamp: the build needs nothing of the checkout's git state (nor git's trust in its owner).
  build: (source, binary) => run('go', ['build', '-buildvcs=false', '-o', binary, '.'], source),
};

const cargo: Toolchain = {
  command: 'cargo',
  sdkFrom: 'is crates.io reachable?',
  // A dev build: a clean one takes a quarter of a release build's time, and the tests need no speed.
  // --locked: the crates of the committed Cargo.lock, or a failure.
  build(source, binary) {
    const messages = run(
      'cargo',
      ['build', '--locked', '--quiet', '--message-format=json-render-diagnostics'],
      source,
      { ...process.env, CARGO_TARGET_DIR },
    );
    const executable = messages
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { executable?: string | null }).executable)
      .filter((file): file is string => typeof file === 'string')
      .at(-1);
    if (!executable) throw new Error(`cargo built no executable in ${source}`);
    // A copy: another test process rebuilding the shared target folder leaves this one's binary be.
    copyFileSync(executable, binary);
  },
};

const built = new Map<string, BuiltProgram>();

function once(source: string, toolchain: Toolchain): BuiltProgram {
  let program = built.get(source);
  if (!program) {
    program = build(source, toolchain);
    built.set(source, program);
  }
  return program;
}

/** The Go program whose `main` package is `source`, built (once here), or why it could not be. */
export function goProgram(source: string): BuiltProgram {
  return once(source, go);
}

/** The Rust program whose crate (Cargo.toml, Cargo.lock) is `source`, built (once here), or why it could not be. */
export function cargoProgram(source: string): BuiltProgram {
  return once(source, cargo);
}

function build(source: string, toolchain: Toolchain): BuiltProgram {
  const dir = mkdtempSync(path.join(tmpdir(), `durable-mcp-${path.basename(source)}-`));
  const binary = path.join(dir, path.basename(source));
  try {
    toolchain.build(source, binary);
    return { binary, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const { code, stderr } = error as { code?: string; stderr?: string };
    return {
      skipped:
        code === 'ENOENT'
          ? `no \`${toolchain.command}\` command on PATH`
          : `\`${toolchain.command} build\` in ${source} failed (${toolchain.sdkFrom}): ${String(stderr || error).trim()}`,
    };
  }
}
