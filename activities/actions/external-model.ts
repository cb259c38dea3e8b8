/**
 * External models of automatic CLF and SPAN nodes (spec 3: externalConfig; "LLM classification"): the model
 * pre-annotates the document, its answer becomes the classifier tags (CLF) or NER tags (SPAN) of the step,
 * then the workflow gives the step its post-execution status.
 *
 * - No external config: nothing to annotate; a SUCCESS result {annotations: 0, reason} and the tags stay.
 * - LLM: one chat completion on LLM_BASE_URL (deployment configuration, not behind the net guard) with the
 *   configured model, the process secret as the key and temperature 0. The prompt lists the node's labels
 *   (names, descriptions) and the document text and asks for JSON: CLF `{"labels": [name, ...]}`, SPAN
 *   `{"spans": [{"label", "text"}]}`. A span's text is tagged at EVERY occurrence in the content (exact,
 *   case-sensitive, not inside a longer word), since the model names an entity once.
 * - CUSTOM: POST {documentId, filename, content, labels: [{id, name}], model} to restApiUrl through the net
 *   guard (OUTBOUND_ALLOWLIST); answer CLF `{"labels": [name or id, ...]}`, SPAN `{"spans": [{"label",
 *   "start", "end"}]}` with UTF-16 offsets into the content sent (an offset outside it is a bad answer).
 * - Unknown label names or ids are ignored and counted in the result (`ignoredLabels`).
 * - Transcripts (documents with utterances): the text sent is built from the tokens (tokens joined by one
 *   space, utterances by a line break, as domain/transcript.ts transcriptText); a span becomes an
 *   ASR_NER_TAG linked to the tokens it overlaps. A span over two utterances is dropped and counted
 *   (`crossingUtterances`): a tag lives in one utterance.
 * - The node's earlier tags of the document (CLF: its classifier tags; SPAN: tags of its NER tag types) are
 *   replaced in the same transaction as the SUCCESS result row (execution key of context.ts), so a Temporal
 *   retry after a success does nothing and a rerun of the step annotates again.
 * - Answers that are not JSON or have the wrong shape fail for good, with the answer's first 500 characters
 *   in the result; 4xx answers, refused addresses and bad configuration too. 5xx answers, timeouts and
 *   network errors are retried.
 * Prompts and answers: model-answers.ts (pure); labels, document text and the guarded POST: model-io.ts.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { lockStep } from '../../db/queries/steps';
import type { CustomExternalConfig, ExternalConfig, LlmExternalConfig } from '../../domain/graph-types';
import { OutboundRefused } from '../../server/net-guard';
import {
  alreadySucceeded,
  executionKey,
  loadActionNode,
  permanentFailure,
  recordResult,
  refusalMessage,
  type ActionNode,
} from './context';
import type { ActionDeps, ActionExecutor, DocumentRun, RunAutomaticNodeInput } from './index';
import { LLM_TIMEOUT_MS, callLlm, isPermanentLlmError, prepareLlmCall } from './llm-prompt';
import { DEFAULT_LLM_BASE_URL } from '../../server/config';
import { BadAnswer, llmPrompt, readAnswer, type Annotations, type Span } from './model-answers';
import {
  MAX_ANSWER_BYTES,
  httpUrl,
  loadLabels,
  loadModelText,
  postJson,
  type JsonPostResult,
  type ModelKind,
  type ModelLabel,
  type ModelText,
  type TextToken,
} from './model-io';
import { externalConfigOf } from '../../db/queries/nodes';
import {
  deleteNodeNerTagsOfDocument,
  insertNerTagRows,
  nextNerTagIds,
  replaceNodeClassifierTags,
} from '../../db/queries/tags';

/** Budget of one call of a custom model. */
export const EXTERNAL_TIMEOUT_MS = 120_000;
const ANSWER_PREVIEW = 500;

// --- asking the models ---

/** A failure to record: permanent ones end the step in ERROR, others are retried by Temporal. */
class CallFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

async function askLlm(
  deps: ActionDeps,
  node: ActionNode,
  config: LlmExternalConfig,
  kind: ModelKind,
  labels: ModelLabel[],
  text: ModelText,
): Promise<{ raw: string; request: Record<string, unknown> }> {
  const settings = { llmModel: config.llmModel, secret: config.secret, temperature: 0 };
  const prepared = await prepareLlmCall(
    deps.knex,
    { ...node, settings },
    { process: { id: node.processId, name: '' }, now: new Date() },
  );
  // prepareLlmCall speaks of LLM prompt nodes; here it is the node's external LLM configuration.
  if (typeof prepared === 'string')
    throw new CallFailure(
      prepared.replace(/the LLM prompt node/gi, "the node's LLM configuration").replace(/^the/, 'The'),
      true,
    );
  const request = { configType: 'LLM', model: prepared.call.model, temperature: 0 };
  try {
    const raw = await callLlm({
      ...prepared.call,
      prompt: llmPrompt(kind, labels, text),
      baseUrl: deps.llmBaseUrl ?? DEFAULT_LLM_BASE_URL,
      timeoutMs: LLM_TIMEOUT_MS,
    });
    return { raw, request };
  } catch (err) {
    throw new CallFailure(`The LLM API failed: ${(err as Error).message}`, isPermanentLlmError(err), request);
  }
}

async function askCustom(
  deps: ActionDeps,
  input: DocumentRun,
  config: CustomExternalConfig,
  labels: ModelLabel[],
  text: ModelText,
): Promise<{ raw: string; request: Record<string, unknown> }> {
  const url = httpUrl(config.restApiUrl, 'REST API URL of the external model');
  if (typeof url === 'string') throw new CallFailure(url, true);
  const request = { configType: 'CUSTOM', model: config.model, url: url.toString() };
  const payload = {
    documentId: input.documentId,
    filename: text.filename,
    content: text.content,
    labels: labels.map((l) => ({ id: l.id, name: l.name })),
    model: config.model,
  };
  let res: JsonPostResult;
  try {
    res = await postJson(url, payload, {
      allowlist: deps.outboundAllowlist ?? [],
      timeoutMs: EXTERNAL_TIMEOUT_MS,
    });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new CallFailure(refusalMessage(err), true, request);
    throw new CallFailure(
      `The external model at ${url.host} failed: ${(err as Error).message}`,
      false,
      request,
    );
  }
  const details = { ...request, httpStatus: res.status, answer: res.body.slice(0, ANSWER_PREVIEW) };
  if (res.status >= 500)
    throw new CallFailure(`The external model at ${url.host} answered HTTP ${res.status}`, false, details);
  if (res.status < 200 || res.status >= 300)
    throw new CallFailure(`The external model at ${url.host} answered HTTP ${res.status}`, true, details);
  if (res.truncated)
    throw new CallFailure(
      `The answer of the external model is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`,
      true,
      details,
    );
  return { raw: res.body, request };
}

// --- storing the tags ---

/** Spans of a transcript as tags over the tokens they overlap; spans over two utterances are dropped. */
function tokenTags(spans: Span[], tokens: TextToken[]) {
  const tags: { labelId: number; tokens: TextToken[] }[] = [];
  let crossing = 0;
  for (const s of spans) {
    const covered = tokens.filter((t) => t.start < s.end && t.end > s.start);
    if (!covered.length) continue; // only spaces or line breaks
    if (covered.some((t) => t.utteranceId !== covered[0].utteranceId)) crossing++;
    else tags.push({ labelId: s.labelId, tokens: covered });
  }
  return { tags, crossing };
}

async function writeSpanTags(
  trx: Knex.Transaction,
  input: DocumentRun,
  text: ModelText,
  spans: Span[],
  origin: ExternalConfig['configType'],
) {
  // origin (domain/tags.ts TagOrigins): the workspace shows the model's tags as such.
  const base = { document_id: input.documentId, step_id: input.stepId, origin };
  if (!text.tokens) {
    const rows = spans.map((s) => ({
      ...base,
      ner_tag_type_id: s.labelId,
      type: 'SPAN_TAG',
      start_offset: s.start,
      end_offset: s.end,
    }));
    await insertNerTagRows(trx, rows);
    return { written: rows.length, crossingUtterances: 0 };
  }
  const { tags, crossing } = tokenTags(spans, text.tokens);
  if (tags.length) {
    const ids = await nextNerTagIds(trx, tags.length);
    const times = (vs: (number | null)[]) => vs.filter((v): v is number => v !== null);
    const rows = tags.map((t, i) => {
      const starts = times(t.tokens.map((k) => k.tsStart));
      const ends = times(t.tokens.map((k) => k.tsEnd));
      return {
        id: ids[i],
        ...base,
        ner_tag_type_id: t.labelId,
        type: 'ASR_NER_TAG',
        ts_start: starts.length ? Math.min(...starts) : null,
        ts_end: ends.length ? Math.max(...ends) : null,
      };
    });
    const links = tags.flatMap((t, i) =>
      t.tokens.map((k) => ({ ner_tag_id: ids[i], utterance_token_id: k.id })),
    );
    await insertNerTagRows(trx, rows, links);
  }
  return { written: tags.length, crossingUtterances: crossing };
}

/** Replaces the node's tags of the document with the annotations, with the SUCCESS row, in one transaction. */
async function store(
  knex: Knex,
  input: DocumentRun,
  origin: ExternalConfig['configType'],
  kind: ModelKind,
  text: ModelText,
  found: Annotations,
  details: Record<string, unknown>,
): Promise<void> {
  await knex.transaction(async (trx) => {
    if (!(await lockStep(trx, input.stepId)))
      throw ApplicationFailure.nonRetryable('The step no longer exists', 'StepGone');
    let written: number;
    let crossingUtterances = 0;
    if (kind === 'CLF') {
      written = await replaceNodeClassifierTags(
        trx,
        { documentId: input.documentId, stepId: input.stepId, nodeId: input.nodeId, origin },
        found.classes,
      );
    } else {
      await deleteNodeNerTagsOfDocument(trx, input.documentId, input.nodeId);
      ({ written, crossingUtterances } = await writeSpanTags(trx, input, text, found.spans, origin));
    }
    await recordResult(trx, input, 'SUCCESS', {
      ...details,
      annotations: written,
      ignoredLabels: found.ignoredLabels,
      ...(kind === 'SPAN' ? { notFound: found.notFound, crossingUtterances } : {}),
      kind: text.tokens ? 'transcript' : 'text',
    });
  });
}

async function execute(input: DocumentRun, deps: ActionDeps): Promise<void> {
  const { knex } = deps;
  const kind: ModelKind = input.activityType === 'SPAN' ? 'SPAN' : 'CLF';
  const node = await loadActionNode(knex, input.nodeId);
  const config = (await externalConfigOf(knex, input.nodeId)) as ExternalConfig | null;
  if (!config) {
    await recordResult(knex, input, 'SUCCESS', {
      annotations: 0,
      reason: 'The node has no external model: nothing to annotate',
    });
    return;
  }
  const text = await loadModelText(knex, input.documentId);
  if (!text) throw ApplicationFailure.nonRetryable('The document no longer exists', 'DocumentGone');
  const labels = await loadLabels(knex, input.nodeId, kind);
  if (!labels.length)
    throw await permanentFailure(
      knex,
      input,
      `The node has no ${kind === 'CLF' ? 'classifier labels' : 'enabled NER tag types'} for the model to choose from`,
    );
  let asked: { raw: string; request: Record<string, unknown> };
  try {
    if (config.configType === 'LLM') asked = await askLlm(deps, node, config, kind, labels, text);
    else if (config.configType === 'CUSTOM') asked = await askCustom(deps, input, config, labels, text);
    else
      throw new CallFailure(
        `Unknown external model type ${(config as { configType: unknown }).configType}`,
        true,
      );
  } catch (err) {
    if (!(err instanceof CallFailure)) throw err;
    if (err.permanent) throw await permanentFailure(knex, input, err.message, err.details);
    await recordResult(knex, input, 'FAILURE', { ...err.details, error: err.message });
    throw new Error(err.message, { cause: err });
  }
  let found: Annotations;
  try {
    found = readAnswer(asked.raw, kind, config.configType, labels, text.content);
  } catch (err) {
    if (err instanceof BadAnswer)
      throw await permanentFailure(knex, input, err.message, {
        ...asked.request,
        answer: err.raw.slice(0, ANSWER_PREVIEW),
      });
    throw err;
  }
  await store(knex, input, config.configType, kind, text, found, asked.request);
}

export const runExternalModel: ActionExecutor = async (run: RunAutomaticNodeInput, deps) => {
  if (run.documentId === null || run.stepId === null)
    throw ApplicationFailure.nonRetryable('An external model annotates one document at a time', 'BadInput');
  if (await alreadySucceeded(deps.knex, executionKey(run))) return;
  await execute(run as DocumentRun, deps);
};
