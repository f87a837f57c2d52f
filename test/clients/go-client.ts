/**
 * The Go SDK's client under test (`mcp.Client` of github.com/modelcontextprotocol/go-sdk), run as
 * go/main.go built with `go build`: one process per connection, driven one JSON line at a time
 * (line-client.ts), so the scenarios run through it as through the other clients. It keeps the
 * SDK's defaults: its retry loop's limits (10 results, 3 state-only ones) are not options of the
 * SDK, so STAND_INS.atLeg does not reach it.
 */
import path from 'node:path';
import { goProgram, type BuiltProgram } from '../support/built-program';
import type { Connect } from './connected-client';
import { connectLineClient } from './line-client';

/** go/main.go, built once here, or why it could not be. */
export function goClientProgram(): BuiltProgram {
  return goProgram(path.join(__dirname, 'go'));
}

/** Connects the built client to each URL it is given. */
export function goClient(program: BuiltProgram): Connect {
  return async (url) => {
    if (!('binary' in program)) throw new Error(`no Go client: ${program.skipped}`);
    return connectLineClient(program.binary, ['-url', url], 'Go SDK');
  };
}
