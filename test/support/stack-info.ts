/** Where globalSetup leaves the addresses of the shared test stack for the test files to read. */
import { readFileSync } from 'node:fs';

export interface StackInfo {
  temporalAddress: string;
  databaseUrl: string;
  workflowBundlePath: string;
}

export function readStackInfo(): StackInfo {
  const file = process.env.MCP_TEST_STACK_FILE;
  if (!file) throw new Error('MCP_TEST_STACK_FILE is not set: run integration tests through jest (globalSetup)');
  return JSON.parse(readFileSync(file, 'utf8')) as StackInfo;
}
