/**
 * What the tests of `durable-mcp check --<file>` commands write and read: a stream that keeps what
 * the command printed, and a file of the given content (JSON unless a string) in a folder of its own.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

export function written() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

export const checkedFileWith = (name: string) => (content: unknown) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), `check-${name}-`)), `${name}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
