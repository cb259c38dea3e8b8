/**
 * IPS executor (spec 3 sections 3 and 7): for each receiver (an IPR node of another process) a TEXTFILE
 * document is created in the receiver's process, named by the rendered preferredDocName, its file and
 * content the rendered payload, and its workflow `document-<id>` is started with the IPR node as its upload
 * node. The result lists the created documents by receiver.
 *
 * Once per run of the step: each document is inserted in the same transaction that records it in the
 * result row (FAILURE until every receiver has its document), so a retry starts the workflows of documents
 * already created (a start that finds the workflow running is fine) and creates only the missing ones.
 */
import { stepError } from '../../domain/step-errors';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import {
  executionByKey,
  latestStepExecution,
  recordExecution,
  type ExecutionResultRow,
} from '../../db/queries/action-results';
import { nodeRefs } from '../../db/queries/nodes';
import { renderTemplate, WildcardRenderError } from '../../domain/wildcard-render';
import { openFileStore } from '../../server/files';
import { insertDocument } from '../../server/document-intake';
import {
  alreadySucceeded,
  executionKey,
  executionOf,
  loadActionNode,
  loadRenderData,
  permanentFailure,
  recordResult,
} from './context';
import type { ActionDeps, ActionExecutor, RunAutomaticNodeInput } from './index';

export interface SentDocument {
  receiverNodeId: number;
  processId: number;
  documentId: number;
}

/** A document name without folders or control characters. */
function documentName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return (
    base
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '_')
      .trim()
      .slice(0, 255)
  );
}

/** The latest run of the step, when it failed (a run that succeeded had sent to every receiver). */
async function failedRunBefore(
  knex: ActionDeps['knex'],
  input: RunAutomaticNodeInput,
): Promise<ExecutionResultRow | undefined> {
  if (input.stepId === null) return undefined;
  const last = await latestStepExecution(knex, input.stepId);
  return last?.status === 'FAILURE' ? last : undefined;
}

async function execute(input: RunAutomaticNodeInput, deps: ActionDeps): Promise<void> {
  const { knex } = deps;
  const node = await loadActionNode(knex, input.nodeId);
  const s = node.settings;
  const receiverIds = [...new Set((s.receivers ?? []).map((r) => Number(r?.id)).filter(Number.isInteger))];
  if (receiverIds.length === 0) throw await permanentFailure(knex, input, stepError.ipsNoReceivers.text({}));
  if (!s.preferredDocName?.trim())
    throw await permanentFailure(knex, input, stepError.ipsNoDocumentName.text({}));
  if (!s.payload?.trim()) throw await permanentFailure(knex, input, stepError.ipsNoPayload.text({}));
  if (!deps.startDocument)
    throw await permanentFailure(knex, input, 'This worker cannot start documents (no Temporal client)');

  const receivers = await nodeRefs(knex, receiverIds);
  for (const id of receiverIds) {
    const r = receivers.find((x) => x.id === id);
    if (!r || r.activityType !== 'IPR')
      throw await permanentFailure(knex, input, stepError.notReceiver.text({ id: String(id) }));
  }

  let filename: string;
  let payload: string;
  try {
    const data = await loadRenderData(knex, input);
    filename = documentName(renderTemplate(s.preferredDocName, data));
    payload = renderTemplate(s.payload, data);
  } catch (err) {
    if (err instanceof WildcardRenderError) throw await permanentFailure(knex, input, err.message);
    throw err;
  }
  if (!filename) throw await permanentFailure(knex, input, stepError.emptyDocumentName.text({}));

  const key = executionKey(input);
  // A rerun of a failed send (a re-send, api/routes/action-results.ts) is a new run of the step: the documents
  // its failed run created already are kept, so only the receivers still without one get a document.
  const previous = (await executionByKey(knex, key)) ?? (await failedRunBefore(knex, input));
  const sent: SentDocument[] = [...((previous?.details?.documents as SentDocument[] | undefined) ?? [])];
  const store = openFileStore(deps);
  const bytes = Buffer.from(payload, 'utf8');

  for (const id of receiverIds) {
    if (sent.some((d) => d.receiverNodeId === id)) continue;
    const processId = receivers.find((x) => x.id === id)!.processId;
    await knex.transaction(async (trx) => {
      const documentId = await insertDocument(trx, store, {
        processId,
        uploadNodeId: id,
        filename,
        bytes,
        mimeType: 'text/plain',
        documentType: 'TEXTFILE',
        createdById: null,
        content: payload,
      });
      sent.push({ receiverNodeId: id, processId, documentId });
      await recordExecution(
        trx,
        executionOf(input, 'FAILURE', { documents: sent, error: 'sending unfinished' }, key, null),
        'replace',
      );
    });
  }

  for (const d of sent) {
    try {
      await deps.startDocument({
        documentId: d.documentId,
        processId: d.processId,
        uploadNodeId: d.receiverNodeId,
      });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) continue;
      const message = `Starting document ${d.documentId} in process ${d.processId} failed: ${(err as Error).message}`;
      await recordResult(knex, input, 'FAILURE', { documents: sent, error: message });
      throw new Error(message, { cause: err });
    }
  }
  await recordResult(knex, input, 'SUCCESS', {
    documents: sent,
    documentIds: sent.map((d) => d.documentId),
  });
}

export const interProcessSend: ActionExecutor = async (input, deps) => {
  if (await alreadySucceeded(deps.knex, executionKey(input))) return;
  await execute(input, deps);
};
