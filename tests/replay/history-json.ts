/**
 * A workflow history to and from the JSON of Temporal's tools (proto3 JSON, the format of `temporal workflow
 * show --output json` and of the SDK's `historyToJSON` / `historyFromJSON`).
 *
 * Converted with the protobufjs copy @temporalio/proto itself was built with: `historyFromJSON` and
 * `historyToJSON` of @temporalio/common 1.24 use protobufjs/ext/protojson of their own copy, and when npm
 * installs the two copies side by side (as here) they throw "type must be a Type" on the proto's types.
 * `Worker.runReplayHistories` takes the History object this returns as it is.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

export type History = proto.temporal.api.history.v1.IHistory;

interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}

const fromProtoPackage = createRequire(path.join(path.dirname(require.resolve('@temporalio/proto')), 'x.js'));
const protojson = fromProtoPackage('protobufjs/ext/protojson') as ProtoJson;
const historyType = (patchProtobufRoot(proto) as any).lookupType('temporal.api.history.v1.History');

/** The history as proto3 JSON (an object, ready for JSON.stringify). */
export function historyToJson(history: History): unknown {
  return protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history));
}

/** A History object from proto3 JSON; fields a newer server added are ignored. */
export function historyFromJson(json: unknown): History {
  return protojson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}
