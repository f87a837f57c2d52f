/**
 * Reads a workflow history saved as JSON (`temporal workflow show --output json`, or the Web UI's
 * download) into the History message a replay worker takes.
 *
 * The SDK's own `historyFromJSON` is not used: it parses with the protobufjs copy of
 * `@temporalio/common` a type defined by the copy of `@temporalio/proto`, and with the two copies
 * this lockfile installs it fails ("type must be a Type"). Parsing with the copy that defined the
 * type reads the same JSON the same way.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

type History = proto.temporal.api.history.v1.IHistory;

const protoRequire = createRequire(require.resolve('@temporalio/proto'));
const { fromJson } = protoRequire('protobufjs/ext/protojson') as {
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): History;
};
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History',
);

export function historyFromJson(json: unknown): History {
  return fromJson(historyType, json, { ignoreUnknownFields: true });
}

/** Every `*.json` history in `dir`, by file name. */
export function readHistories(dir: string): Array<{ name: string; history: History }> {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({
      name: file,
      history: historyFromJson(JSON.parse(readFileSync(path.join(dir, file), 'utf8'))),
    }));
}
