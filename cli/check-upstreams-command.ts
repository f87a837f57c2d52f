/**
 * `durable-mcp check --upstreams <file>`: reads an UPSTREAMS_FILE as the service reads it when it
 * starts (every field, the credentials' and decision points' variables in this environment, every
 * policy's addressing), without calling any upstream: for an operator's CI before a deploy or a
 * policy change.
 */
import { readFileSync } from 'node:fs';
import { parseUpstreamFile, UpstreamDeclarationError } from '../lib/upstreams/upstream-declaration';
import { EXIT_INVALID_MODULE } from './check-command';

export function checkUpstreamsCommand(file: string, out: NodeJS.WritableStream = process.stdout): number {
  try {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UpstreamDeclarationError(`${file} cannot be read: ${(error as Error).message}`);
    }
    const upstreams = parseUpstreamFile(text, process.env, file);
    out.write(`${file}: ${upstreams.length} upstream${upstreams.length === 1 ? '' : 's'}, all valid\n`);
    for (const upstream of upstreams) {
      const policies = upstream.policies.map((policy) => policy.name).join(', ');
      out.write(`  upstream ${upstream.name} at ${upstream.url}${policies ? `; policies: ${policies}` : ''}\n`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof UpstreamDeclarationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return EXIT_INVALID_MODULE;
  }
}
