/**
 * Training of trainable CLF and SPAN nodes (spec 3: trainableConfig, `PUT api/trainable-nodes/{id}/train`),
 * run by the `trainNodeNow` activity (MANUAL: the train route, through trainNodeWorkflow) and the
 * `maybeTrainNode` activity (AUTOMATIC, after a step):
 * - the payload is {nodeId, model, labels: [{id, name, description}], documents: [{id, filename, content,
 *   classifierLabels: [names]} | {id, filename, content, spans: [{label, start, end, text}]}]} over the
 *   documents with a DONE or ACCEPTED step at the node (content and offsets as external models get them:
 *   a transcript's text is built from its tokens, and its token tags get the offsets of their tokens);
 * - it is POSTed to the node's requestPath through the net guard (OUTBOUND_ALLOWLIST), 20 s budget: the
 *   model server is expected to accept the data and train on its own time;
 * - every attempt is a `node_trainings` row: SUCCESS for a 2xx answer, FAILURE (HTTP status or error) else.
 * - Automatic training runs when automaticTraining is on and at least `threshold` more documents are
 *   finished at the node than the latest successful training sent (a count, not a time: a document that is
 *   deleted lowers the count, a reopened and finished again one is not new).
 * One training of a node at a time: a transaction-scoped advisory lock is tried first; whoever does not get
 * it skips (the running training sends those documents too).
 */
import type { Knex } from 'knex';
import type { TrainableConfig } from '../domain/graph-types';
import { NODE_LIMITS } from '../domain/nodes';
import { untrainableReason } from '../domain/training';
import { OutboundRefused } from '../server/net-guard';
import type {
  TrainingDTO,
  TrainingReason,
  TrainNodeInput,
  TrainNodeResult,
} from '../workflows/request-contract';
import { refusalMessage } from './actions/context';
import {
  httpUrl,
  loadLabels,
  loadModelText,
  postJson,
  type ModelKind,
  type ModelLabel,
  type ModelText,
} from './actions/model-io';
import { tryAdvisoryXactLock } from '../db/queries/locks';
import {
  insertNodeTraining,
  lastSuccessfulTrainingDocuments,
  type NodeTrainingRow,
} from '../db/queries/node-trainings';
import { trainableConfigRow } from '../db/queries/nodes';
import { finishedDocumentIds } from '../db/queries/steps';
import { classifierTags, nodeSpanTags, tokenIdsOfTags } from '../db/queries/tags';

export const TRAINING_TIMEOUT_MS = 20_000;
const ERROR_PREVIEW = 500;

export interface TrainingDeps {
  knex: Knex;
  /** OUTBOUND_ALLOWLIST of the deployment. */
  outboundAllowlist?: readonly string[];
}

export interface TrainableNode {
  id: number;
  processId: number;
  kind: ModelKind;
  config: TrainableConfig;
  url: URL;
}

/** The node if it can be trained; otherwise why not (undefined: no such node). */
export async function loadTrainableNode(
  knex: Knex,
  nodeId: number,
): Promise<TrainableNode | string | undefined> {
  const row = await trainableConfigRow(knex, nodeId);
  if (!row) return undefined;
  const config = row.trainableConfig as TrainableConfig | null;
  const untrainable = untrainableReason(row.activityType, config);
  if (untrainable || !config?.requestPath) return untrainable ?? 'The node is not trainable';
  const url = httpUrl(config.requestPath, 'request path of the trainable node');
  if (typeof url === 'string') return url;
  return {
    id: row.id,
    processId: row.processId,
    kind: row.activityType as TrainableNode['kind'],
    config,
    url,
  };
}

interface TrainingSpan {
  label: string;
  start: number;
  end: number;
  text: string;
}

/** The node's NER tags of a document with offsets in the text (token tags: from their tokens). */
async function spansOf(
  knex: Knex,
  nodeId: number,
  documentId: number,
  text: ModelText,
): Promise<TrainingSpan[]> {
  const rows = await nodeSpanTags(knex, documentId, nodeId);
  const tokenIds = text.tokens
    ? await tokenIdsOfTags(
        knex,
        rows.map((r) => r.id),
      )
    : new Map<number, number[]>();
  const tokenById = new Map((text.tokens ?? []).map((t) => [t.id, t]));
  const spans: TrainingSpan[] = [];
  for (const r of rows) {
    let start = r.start;
    let end = r.end;
    const tokens = (tokenIds.get(Number(r.id)) ?? [])
      .map((id) => tokenById.get(id))
      .filter((t) => t !== undefined);
    if (tokens.length) {
      start = Math.min(...tokens.map((t) => t.start));
      end = Math.max(...tokens.map((t) => t.end));
    }
    if (start === null || end === null || start < 0 || end > text.content.length || end <= start) continue;
    spans.push({ label: r.label, start, end, text: text.content.slice(start, end) });
  }
  return spans.sort((a, b) => a.start - b.start || a.end - b.end);
}

export async function trainingPayload(knex: Knex, node: TrainableNode, documentIds: readonly number[]) {
  const labels: ModelLabel[] = await loadLabels(knex, node.id, node.kind);
  const documents = [];
  for (const id of documentIds) {
    const text = await loadModelText(knex, id);
    if (!text) continue; // deleted meanwhile
    const base = { id, filename: text.filename, content: text.content };
    if (node.kind === 'CLF') {
      const classifierLabels = (await classifierTags(knex, id, node.id)).map((t) => t.name);
      documents.push({ ...base, classifierLabels });
    } else documents.push({ ...base, spans: await spansOf(knex, node.id, id, text) });
  }
  return { nodeId: node.id, model: node.config.model, labels, documents };
}

export type TrainingOutcome = { training: TrainingDTO; refused: boolean } | { skipped: string };

/** Decides, inside the lock, whether to train: a reason to skip, or null to go on. */
export type TrainingGate = (finishedDocuments: number, lastTrainedDocuments: number) => string | null;

function toDTO(r: NodeTrainingRow): TrainingDTO {
  return {
    id: Number(r.id),
    nodeId: Number(r.node_id),
    reason: r.reason as TrainingReason,
    status: r.status as TrainingDTO['status'],
    documents: Number(r.documents),
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    error: (r.error as string | null) ?? null,
    createdDate: new Date(r.created_date as string).toISOString(),
  };
}

/** Posts the payload; what to record of the attempt. */
async function post(deps: TrainingDeps, node: TrainableNode, payload: unknown) {
  try {
    const res = await postJson(node.url, payload, {
      allowlist: deps.outboundAllowlist ?? [],
      timeoutMs: TRAINING_TIMEOUT_MS,
      maxBytes: 64 * 1024,
    });
    if (res.status >= 200 && res.status < 300)
      return { status: 'SUCCESS' as const, httpStatus: res.status, error: null, refused: false };
    const answer = res.body.trim().slice(0, ERROR_PREVIEW);
    const error = `The model server at ${node.url.host} answered HTTP ${res.status}${answer ? `: ${answer}` : ''}`;
    return { status: 'FAILURE' as const, httpStatus: res.status, error, refused: false };
  } catch (err) {
    const refused = err instanceof OutboundRefused;
    const error = refused
      ? refusalMessage(err)
      : `The model server at ${node.url.host} failed: ${(err as Error).message}`;
    return { status: 'FAILURE' as const, httpStatus: null, error, refused };
  }
}

/**
 * Trains the node once (unless another training of it is running, or `gate` says no) and records the
 * attempt. Database errors propagate; failures of the model server are recorded and returned.
 */
export async function trainNode(
  deps: TrainingDeps,
  node: TrainableNode,
  reason: TrainingReason,
  gate?: TrainingGate,
): Promise<TrainingOutcome> {
  return deps.knex.transaction(async (trx) => {
    if (!(await tryAdvisoryXactLock(trx, `training:node:${node.id}`)))
      return { skipped: 'A training of the node is already running' };
    const documentIds = await finishedDocumentIds(trx, node.id);
    if (gate) {
      const skip = gate(documentIds.length, await lastSuccessfulTrainingDocuments(trx, node.id));
      if (skip) return { skipped: skip };
    }
    const payload = await trainingPayload(trx, node, documentIds);
    const outcome = await post(deps, node, payload);
    const row = await insertNodeTraining(trx, {
      nodeId: node.id,
      reason,
      status: outcome.status,
      documents: payload.documents.length,
      httpStatus: outcome.httpStatus,
      error: outcome.error,
    });
    return { training: toDTO(row), refused: outcome.refused };
  });
}

export interface MaybeTrainResult {
  trained: boolean;
  /** Why nothing was trained. */
  skipped?: string;
  training?: TrainingDTO;
}

export function createTrainingActivities(deps: TrainingDeps) {
  return {
    /** A manual training now (the train route awaits it through trainNodeWorkflow). */
    async trainNodeNow(input: TrainNodeInput): Promise<TrainNodeResult> {
      const node = await loadTrainableNode(deps.knex, input.nodeId);
      if (node === undefined) return { notFound: true };
      if (typeof node === 'string') return { notTrainable: node };
      return trainNode(deps, node, 'MANUAL');
    },

    /**
     * After a step of a CLF / SPAN node is completed or accepted: trains the node when automatic training
     * is on and `threshold` new documents are finished there. Never fails for the model server (the
     * attempt is recorded), so the document's walk does not wait on it.
     */
    async maybeTrainNode(input: { nodeId: number }): Promise<MaybeTrainResult> {
      const node = await loadTrainableNode(deps.knex, input.nodeId);
      if (node === undefined) return { trained: false, skipped: 'The node no longer exists' };
      if (typeof node === 'string') return { trained: false, skipped: node };
      if (!node.config.automaticTraining) return { trained: false, skipped: 'Automatic training is off' };
      const threshold = node.config.threshold ?? NODE_LIMITS.trainableThreshold.default;
      const outcome = await trainNode(deps, node, 'AUTOMATIC', (finished, last) =>
        finished - last >= threshold
          ? null
          : `${finished - last} new finished documents of the ${threshold} automatic training needs`,
      );
      if ('skipped' in outcome) return { trained: false, skipped: outcome.skipped };
      return { trained: outcome.training.status === 'SUCCESS', training: outcome.training };
    },
  };
}
