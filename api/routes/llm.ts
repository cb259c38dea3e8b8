/**
 * LLM chat responses (spec 3 section 7).
 * - `POST /api/llm-prompt-step/{stepId}/rerun` {prompt, promptEditorState}: runs the edited prompt (wildcards
 *   rendered for the step's document) again on the worker (llmRerunWorkflow, awaited; the chat API has
 *   300000 ms), with the node's model, temperature, secret and attachment, against the worker's LLM_BASE_URL;
 *   answers the new chat response of the step (the latest response is what `${node.<id>.llmresponse}`
 *   renders): 201; 400 when the prompt does not render or the node's configuration is unusable, 502 when
 *   the chat API fails, 503 when the engine is unreachable. ADMIN or WRITE on the node. The rerun is not a
 *   step run: no action execution result is written and the step keeps its status.
 * - `GET /api/llm-chat-responses?documentId`: the document's chat responses, oldest first, of the nodes the
 *   user may READ; 403 alike for an unknown document and one the user cannot read (READ on its process or
 *   a grant on one of its nodes).
 */
import { route, type Route } from '../route';
import { id } from '../responses';

import { documentReader, onNode, param, query } from './access';
import crypto from 'node:crypto';
import { z } from 'zod';
import { documentById } from '../../db/queries/documents';
import { stepNode } from '../../db/queries/steps';
import { modeSatisfies, nodeMode } from '../../domain/access';
import {
  LLM_RERUN_TIMEOUT_MS,
  LLM_RERUN_WORKFLOW,
  llmRerunWorkflowId,
  type LlmRerunInput,
  type LlmRerunResult,
} from '../../workflows/request-contract';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser, mayReadDocumentOf, unreachable } from '../auth';
import { HttpError, badRequest, notFound } from '../errors';
import { runWorkflow } from '../services/workflow-runs';
import { firstValue, idParam } from '../validate';
import {
  chatResponseById,
  chatResponsesOfDocument,
  type ChatResponseRow,
} from '../../db/queries/llm-chat-responses';

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

export const rerunBody = z.object({
  prompt: z.string().trim().min(1),
  promptEditorState: z.string().nullish(),
});

function toDTO(r: ChatResponseRow): LlmChatResponseDTO {
  return {
    id: Number(r.id),
    stepId: Number(r.step_id),
    nodeId: Number(r.node_id),
    documentId: Number(r.document_id),
    prompt: r.prompt as string,
    promptEditorState: (r.prompt_editor_state as string | null) ?? null,
    response: r.response as string,
    createdDate: new Date(r.created_date).toISOString(),
  };
}

const chatResponseDto = z.object({
  id,
  stepId: id,
  nodeId: id,
  documentId: id,
  prompt: z.string(),
  promptEditorState: z.string().nullable(),
  response: z.string(),
  createdDate: z.string(),
}) satisfies z.ZodType<LlmChatResponseDTO>;

export function llmRoutes({ knex, temporal, config }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'POST',
        path: '/api/llm-prompt-step/:stepId/rerun',
        access: onNode('WRITE', param('stepId', 'step')),
        body: { schema: rerunBody, object: 'llmPromptRerun' },
        response: chatResponseDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const step = await stepNode(knex, idParam(ctx.params.stepId, 'stepId'));
        if (!step) throw notFound('step');
        assertNodeMode(user, step.nodeId, step.processId, 'WRITE');
        if (step.activityType !== 'LLM_PROMPT')
          throw badRequest('The step is not a step of an LLM prompt node');
        const input = body();
        const result = await runWorkflow<LlmRerunInput, LlmRerunResult>(
          temporal,
          config.taskQueue,
          LLM_RERUN_WORKFLOW,
          llmRerunWorkflowId(step.id, crypto.randomUUID()),
          {
            stepId: step.id,
            nodeId: step.nodeId,
            documentId: step.documentId,
            prompt: input.prompt,
            promptEditorState: input.promptEditorState ?? null,
          },
          // The chat API's budget, and a minute for the worker to pick the run up and store the answer.
          LLM_RERUN_TIMEOUT_MS + 60_000,
        );
        if ('invalid' in result) throw badRequest(result.invalid);
        if ('llmFailed' in result)
          throw new HttpError(502, { message: 'error.http.502', detail: result.llmFailed });
        const id = result.stored.chatResponseId;
        ctx.status = 201;
        ctx.body = toDTO((await chatResponseById(knex, id))!);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/llm-chat-responses',
        access: documentReader(query('documentId', 'document')),
        response: z.array(chatResponseDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const documentId = idParam(firstValue(ctx.query.documentId), 'documentId');
        const doc = await documentById(knex, documentId);
        // An unknown document and one of a process the caller cannot read answer alike (issue 9 finding 12).
        if (!doc || !(await mayReadDocumentOf(knex, user, doc.processId)))
          throw unreachable(user, 'document');
        const rows = await chatResponsesOfDocument(knex, documentId);
        const processId = doc.processId;
        ctx.body = rows
          .filter((r) => modeSatisfies(nodeMode(user, Number(r.node_id), processId), 'READ'))
          .map(toDTO);
      },
    ),
  ];
}
