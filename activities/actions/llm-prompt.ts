/**
 * LLM_PROMPT executor (spec 3 sections 3, 7 and 9): the node's prompt, rendered for the document, sent to the
 * OpenAI-compatible chat completions API (`openai` package) with the node's model, temperature (default 1)
 * and the value of its process secret as the API key. The answer is stored as an LLM chat response of the
 * step (it feeds `${node.<id>.llmresponse}`) and the run as an action execution result.
 *
 * The base URL is deployment configuration (LLM_BASE_URL), not user input, so the net guard does not apply.
 * attachFile: for a model with modalities, the document's text content is sent as a second text part of the
 * user message; for a model without modalities the flag is ignored.
 * 4xx answers and bad configuration fail for good; 5xx answers, timeouts and network errors are retried.
 * The rerun of a step with an edited prompt (`rerunLlmPrompt`, through llmRerunWorkflow) is one call, not a
 * step run: no action execution result is written and the step keeps its status.
 */
import { stepError } from '../../domain/step-errors';
import type { Knex } from 'knex';
import OpenAI from 'openai';
import { renderTemplate, WildcardRenderError, type RenderData } from '../../domain/wildcard-render';
import {
  alreadySucceeded,
  executionKey,
  loadActionNode,
  loadRenderData,
  permanentFailure,
  recordResult,
  type ActionNode,
} from './context';
import { openValue, UnreadableCredential } from '../../db/crypto';
import {
  LLM_RERUN_TIMEOUT_MS,
  type LlmRerunInput,
  type LlmRerunResult,
} from '../../workflows/request-contract';
import type { ActionDeps, ActionExecutor, RunAutomaticNodeInput } from './index';
import { DEFAULT_LLM_BASE_URL } from '../../server/config';
import { insertChatResponse } from '../../db/queries/llm-chat-responses';
import { findLlmModel } from '../../db/queries/llm-models';
import { sealedSecret } from '../../db/queries/secrets';

/** Budget of one call of a node run (the rerun endpoint has its own). */
export const LLM_TIMEOUT_MS = 300_000;

export interface LlmCall {
  baseUrl: string;
  apiKey: string;
  model: string;
  temperature: number;
  prompt: string;
  /** Text sent as a second part of the user message (attachFile on a model with modalities). */
  attachment?: { filename: string; content: string };
  timeoutMs: number;
}

/** Calls the chat completions API once (no SDK retries: Temporal retries the activity). */
export async function callLlm(call: LlmCall): Promise<string> {
  const client = new OpenAI({
    apiKey: call.apiKey,
    baseURL: call.baseUrl,
    maxRetries: 0,
    timeout: call.timeoutMs,
  });
  const content: OpenAI.Chat.ChatCompletionContentPart[] = [{ type: 'text', text: call.prompt }];
  if (call.attachment)
    content.push({
      type: 'text',
      text: `Attached file ${call.attachment.filename}:\n${call.attachment.content}`,
    });
  const completion = await client.chat.completions.create({
    model: call.model,
    temperature: call.temperature,
    messages: [{ role: 'user', content: call.attachment ? content : call.prompt }],
  });
  return completion.choices[0]?.message?.content ?? '';
}

/** A 4xx answer of the LLM API (bad key, unknown model, bad request): retrying does not help. */
export const isPermanentLlmError = (err: unknown): err is InstanceType<typeof OpenAI.APIError> =>
  err instanceof OpenAI.APIError &&
  typeof err.status === 'number' &&
  err.status >= 400 &&
  err.status < 500 &&
  err.status !== 408 &&
  err.status !== 429;

export interface PreparedLlmCall {
  call: Omit<LlmCall, 'baseUrl' | 'timeoutMs' | 'prompt'>;
  secretName: string;
}

/**
 * The model's name and modalities and the API key of a process secret; a string is the reason they cannot be
 * used (gone model, gone or inactive secret, unreadable value), naming `owner` ("the LLM prompt node", "the
 * RAG query"). Without a secret id the key is a placeholder (servers that need none).
 */
export async function modelAndKey(
  knex: Knex,
  processId: number,
  modelId: number,
  secretId: number | null,
  owner: string,
): Promise<{ model: string; modalities: unknown[]; apiKey: string; secretName: string | null } | string> {
  const model = await findLlmModel(knex, modelId);
  if (!model) return `The model of ${owner} no longer exists`;
  const modalities: unknown[] = Array.isArray(model.modalities) ? model.modalities : [];
  if (secretId === null) return { model: model.name, modalities, apiKey: 'none', secretName: null };
  const secret = await sealedSecret(knex, secretId, processId);
  if (!secret) return `The secret of ${owner} no longer exists`;
  if (!secret.active) return `The secret "${secret.name}" of ${owner} is inactive`;
  try {
    const apiKey = openValue('secrets', 'value', secret.value) ?? '';
    return { model: model.name, modalities, apiKey, secretName: secret.name };
  } catch (err) {
    if (err instanceof UnreadableCredential) return `Secret "${secret.name}": ${err.message}`;
    throw err;
  }
}

/**
 * The model, key, temperature and attachment of the node; a string is the reason the configuration is
 * unusable (missing or inactive secret, missing model).
 */
export async function prepareLlmCall(
  knex: Knex,
  node: ActionNode,
  data: RenderData,
): Promise<PreparedLlmCall | string> {
  const s = node.settings;
  if (!s.llmModel?.id) return 'The LLM prompt node has no model';
  if (!s.secret?.id) return 'The LLM prompt node has no secret for the API key';
  const found = await modelAndKey(knex, node.processId, s.llmModel.id, s.secret.id, 'the LLM prompt node');
  if (typeof found === 'string') return found;
  const temperature = s.temperature ?? 1;
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2)
    return 'The temperature of the LLM prompt node must be between 0 and 2';
  const attachment =
    s.attachFile && found.modalities.length > 0 && data.document
      ? { filename: data.document.filename, content: data.document.content }
      : undefined;
  return {
    call: { apiKey: found.apiKey, model: found.model, temperature, ...(attachment ? { attachment } : {}) },
    secretName: found.secretName ?? '',
  };
}

async function execute(input: RunAutomaticNodeInput, deps: ActionDeps): Promise<void> {
  const { knex } = deps;
  const node = await loadActionNode(knex, input.nodeId);
  const data = await loadRenderData(knex, input);
  let prompt: string;
  try {
    prompt = renderTemplate(node.settings.prompt ?? '', data);
  } catch (err) {
    if (err instanceof WildcardRenderError) throw await permanentFailure(knex, input, err.message);
    throw err;
  }
  if (!prompt.trim()) throw await permanentFailure(knex, input, stepError.llmEmptyPrompt.text({}));
  const prepared = await prepareLlmCall(knex, node, data);
  if (typeof prepared === 'string') throw await permanentFailure(knex, input, prepared);
  const request = { model: prepared.call.model, temperature: prepared.call.temperature };
  let response: string;
  try {
    response = await callLlm({
      ...prepared.call,
      prompt,
      baseUrl: deps.llmBaseUrl ?? DEFAULT_LLM_BASE_URL,
      timeoutMs: LLM_TIMEOUT_MS,
    });
  } catch (err) {
    const message = stepError.llmFailed.text({ detail: (err as Error).message });
    if (isPermanentLlmError(err)) throw await permanentFailure(knex, input, message, request);
    await recordResult(knex, input, 'FAILURE', { ...request, error: message });
    throw new Error(message, { cause: err });
  }
  // The answer and the SUCCESS row together: a retry after a crash in between stores neither twice.
  await knex.transaction(async (trx) => {
    const chatResponseId = await insertChatResponse(trx, {
      stepId: input.stepId,
      nodeId: input.nodeId,
      documentId: input.documentId,
      batchId: input.batchId ?? null,
      prompt,
      promptEditorState: node.settings.promptEditorState ?? null,
      response,
    });
    await recordResult(trx, input, 'SUCCESS', { ...request, chatResponseId });
  });
}

export const runLlmPrompt: ActionExecutor = async (input, deps) => {
  if (await alreadySucceeded(deps.knex, executionKey(input))) return;
  await execute(input, deps);
};

/**
 * Reruns a step with an edited prompt (rendered for the step's document) once: the node's model, secret,
 * temperature and attachment, the answer stored as a new chat response of the step. A prompt that does not
 * render, an unusable configuration and a failing chat API are answered, not thrown (nothing is stored).
 */
export async function rerunLlmPrompt(deps: ActionDeps, input: LlmRerunInput): Promise<LlmRerunResult> {
  const { knex } = deps;
  const node = await loadActionNode(knex, input.nodeId);
  const data = await loadRenderData(knex, { documentId: input.documentId, nodeId: input.nodeId });
  let prompt: string;
  try {
    prompt = renderTemplate(input.prompt, data);
  } catch (err) {
    if (err instanceof WildcardRenderError) return { invalid: err.message };
    throw err;
  }
  const prepared = await prepareLlmCall(knex, node, data);
  if (typeof prepared === 'string') return { invalid: prepared };
  let response: string;
  try {
    response = await callLlm({
      ...prepared.call,
      prompt,
      baseUrl: deps.llmBaseUrl ?? DEFAULT_LLM_BASE_URL,
      timeoutMs: LLM_RERUN_TIMEOUT_MS,
    });
  } catch (err) {
    return { llmFailed: `The LLM API failed: ${(err as Error).message}` };
  }
  const chatResponseId = await insertChatResponse(knex, {
    stepId: input.stepId,
    nodeId: node.id,
    documentId: input.documentId,
    prompt,
    promptEditorState: input.promptEditorState,
    response,
  });
  return { stored: { chatResponseId } };
}
