/**
 * LLM chat responses (spec 3 section 7).
 * - `POST /api/llm-prompt-step/{stepId}/rerun` {prompt, promptEditorState}: runs the edited prompt (wildcards
 *   rendered for the step's document) again, synchronously with a 300000 ms budget, with the node's model,
 *   temperature, secret and attachment, against LLM_BASE_URL; stores and returns a new chat response of the
 *   step (the latest response is what `${node.<id>.llmresponse}` renders). ADMIN or WRITE on the node.
 *   The rerun is not a step run: no action execution result is written and the step keeps its status.
 * - `GET /api/llm-chat-responses?documentId`: the document's chat responses, oldest first, of the nodes the
 *   user may READ; 403 alike for an unknown document and one the user cannot read (READ on its process or
 *   a grant on one of its nodes).
 */
import Router from '@koa/router';
import { z } from 'zod';
import { modeSatisfies, nodeMode } from '../../domain/access';
import { renderTemplate, WildcardRenderError } from '../../domain/wildcard-render';
import { loadActionNode, loadRenderData } from '../../activities/actions/context';
import { callLlm, prepareLlmCall, storeChatResponse } from '../../activities/actions/llm-prompt';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser, mayReadDocumentOf, unreachable } from '../auth';
import { HttpError, badRequest, notFound } from '../errors';
import { body, idParam } from '../validate';

export const LLM_RERUN_TIMEOUT_MS = 300_000;

export interface LlmChatResponseDTO {
  id: number;
  stepId: number;
  nodeId: number;
  documentId: number;
  prompt: string;
  promptEditorState: string | null;
  response: string;
  createdDate: string;
}

const rerunBody = z.object({
  prompt: z.string().trim().min(1),
  promptEditorState: z.string().nullish(),
});

const firstValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

const COLUMNS = [
  'id',
  'step_id',
  'node_id',
  'document_id',
  'prompt',
  'prompt_editor_state',
  'response',
  'created_date',
];

function toDTO(r: Record<string, unknown>): LlmChatResponseDTO {
  return {
    id: Number(r.id),
    stepId: Number(r.step_id),
    nodeId: Number(r.node_id),
    documentId: Number(r.document_id),
    prompt: r.prompt as string,
    promptEditorState: (r.prompt_editor_state as string | null) ?? null,
    response: r.response as string,
    createdDate: new Date(r.created_date as string).toISOString(),
  };
}

export function llmRoutes({ knex, config }: AppDeps): Router {
  const router = new Router();

  router.post('/api/llm-prompt-step/:stepId/rerun', async (ctx) => {
    const user = currentUser(ctx);
    const step = await knex('steps as s')
      .join('nodes as n', 'n.id', 's.node_id')
      .where('s.id', idParam(ctx.params.stepId, 'stepId'))
      .first('s.id', 's.document_id', 'n.id as nodeId', 'n.process_id as processId', 'n.activity_type');
    if (!step) throw notFound('step');
    assertNodeMode(user, Number(step.nodeId), Number(step.processId), 'WRITE');
    if (step.activity_type !== 'LLM_PROMPT') throw badRequest('The step is not a step of an LLM prompt node');
    const input = body(ctx, rerunBody, 'llmPromptRerun');
    const node = await loadActionNode(knex, Number(step.nodeId));
    const data = await loadRenderData(knex, {
      documentId: Number(step.document_id),
      nodeId: Number(step.nodeId),
    });
    let prompt: string;
    try {
      prompt = renderTemplate(input.prompt, data);
    } catch (err) {
      if (err instanceof WildcardRenderError) throw badRequest(err.message);
      throw err;
    }
    const prepared = await prepareLlmCall(knex, node, data);
    if (typeof prepared === 'string') throw badRequest(prepared);
    let response: string;
    try {
      response = await callLlm({
        ...prepared.call,
        prompt,
        baseUrl: config.llmBaseUrl,
        timeoutMs: LLM_RERUN_TIMEOUT_MS,
      });
    } catch (err) {
      throw new HttpError(502, {
        message: 'error.http.502',
        detail: `The LLM API failed: ${(err as Error).message}`,
      });
    }
    const id = await storeChatResponse(knex, {
      stepId: Number(step.id),
      nodeId: node.id,
      documentId: Number(step.document_id),
      prompt,
      promptEditorState: input.promptEditorState ?? null,
      response,
    });
    ctx.status = 201;
    ctx.body = toDTO(await knex('llm_chat_responses').where('id', id).first(COLUMNS));
  });

  router.get('/api/llm-chat-responses', async (ctx) => {
    const user = currentUser(ctx);
    const documentId = idParam(firstValue(ctx.query.documentId), 'documentId');
    const doc = await knex('documents').where('id', documentId).first('id', 'process_id');
    // An unknown document and one of a process the caller cannot read answer alike (issue 9 finding 12).
    if (!doc || !(await mayReadDocumentOf(knex, user, Number(doc.process_id))))
      throw unreachable(user, 'document');
    const rows: Record<string, unknown>[] = await knex('llm_chat_responses')
      .where('document_id', documentId)
      .orderBy('id', 'asc')
      .select(COLUMNS);
    const processId = Number(doc.process_id);
    ctx.body = rows
      .filter((r) => modeSatisfies(nodeMode(user, Number(r.node_id), processId), 'READ'))
      .map(toDTO);
  });

  return router;
}
