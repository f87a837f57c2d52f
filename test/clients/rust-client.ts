/**
 * The Rust SDK's client under test (the official `rmcp` crate's client), run as rust/src/main.rs
 * built with `cargo build`: one process per connection, driven one JSON line at a time
 * (line-client.ts), so the scenarios run through it as through the other clients. It keeps the
 * SDK's defaults (`serve`, so an `initialize` handshake) but for its multi round-trip loop's cap,
 * set to STAND_INS.atLeg as the other clients' caps are.
 */
import path from 'node:path';
import { cargoProgram, type BuiltProgram } from '../support/built-program';
import { STAND_INS } from './compatibility';
import type { Connect } from './connected-client';
import { connectLineClient } from './line-client';

/** rust/, built once here, or why it could not be. */
export function rustClientProgram(): BuiltProgram {
  return cargoProgram(path.join(__dirname, 'rust'));
}

/** Connects the built client to each URL it is given. */
export function rustClient(program: BuiltProgram): Connect {
  return async (url) => {
    if (!('binary' in program)) throw new Error(`no Rust client: ${program.skipped}`);
    return connectLineClient(program.binary, ['--url', url, '--max-rounds', String(STAND_INS.atLeg)], 'Rust SDK');
  };
}
