/**
 * The Rust client of the compatibility table (compatibility.ts) against one service: the official
 * Rust SDK's (`rmcp`) client with its defaults, run as rust/src/main.rs. Skipped, saying why, when
 * `cargo build` cannot build it (no cargo, or crates.io out of reach; CI fetches and builds it: .ci/run).
 */
import { rustClient, rustClientProgram } from './rust-client';
import { describeClient, useCompatibilityService } from './scenarios';

const service = useCompatibilityService();
const program = rustClientProgram();
afterAll(() => {
  if ('remove' in program) program.remove();
});

describeClient(service, 'rust', rustClient(program), 'skipped' in program ? program.skipped : undefined);
