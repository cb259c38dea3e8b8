/**
 * The LEXICON executor: tags a document by the matching rules of the node's NER tag types (matcher in
 * domain/lexicon.ts). Text documents get SPAN_TAG tags with character offsets into document_contents.content;
 * audio documents are matched per utterance over its token values joined by single spaces and get
 * ASR_NER_TAG tags linked (ner_tag_tokens) to the tokens a match covers, with ts_start / ts_end from them
 * (offsets null: the tokens are the anchor).
 *
 * Idempotent: the step row is locked, the step's earlier tags are deleted and the new ones written with the
 * SUCCESS row of `action_execution_results` in one transaction. The execution key is per step and run
 * (`lexicon:step:<stepId>:run:<attempt>`, attempt = the workflow's run count of the step), so a Temporal
 * retry after a committed success does nothing, while a rerun of the step tags the (maybe re-parsed)
 * content again, replacing the tags of the earlier run. Tags of disabled tag types are not produced.
 * A rule that cannot run (invalid regex, bad tolerance) fails the step non-retryably with a FAILURE row.
 *
 * Fairness (issue 9): regex rules run on RE2 (linear time, domain/user-regex.ts), at most
 * MAX_REGEX_MATCHES_PER_RULE matches and about REGEX_BUDGET_MS per rule, MAX_MATCHES_PER_DOCUMENT per text
 * (domain/lexicon.ts).
 * The matching itself runs in a worker thread (lexicon-pool.ts), so the activities of other documents on the
 * same worker never wait for it; the activity heartbeats meanwhile, a cancellation terminates the thread,
 * and a document whose matching takes longer than LEXICON_TIMEOUT_SECONDS (default 120) fails its step
 * with a message instead of being retried.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { executionByKey, recordExecution } from '../../db/queries/action-results';
import { contentOf } from '../../db/queries/document-contents';
import { documentById } from '../../db/queries/documents';
import { lockStep } from '../../db/queries/steps';
import { hasUtterances, transcriptTokens, type TranscriptToken } from '../../db/queries/utterances';
import { compileLexicon, type LexiconMatch, type LexiconRule } from '../../domain/lexicon';
import { activityContext } from '../parser/work';
import { executionOf } from './context';
import { duration, LexiconTimeout, matchInThread } from './lexicon-pool';
import type { ActionExecutor, DocumentRun, RunAutomaticNodeInput } from './index';
import { enabledRulesOfNode } from '../../db/queries/matching-rules';
import { deleteNerTagsOfStep, insertNerTagRows, nextNerTagIds } from '../../db/queries/tags';

interface TagRow {
  document_id: number;
  step_id: number;
  ner_tag_type_id: number;
  type: 'SPAN_TAG' | 'ASR_NER_TAG';
  start_offset: number | null;
  end_offset: number | null;
  ts_start: number | null;
  ts_end: number | null;
  /** domain/tags.ts TagOrigins: the workspace shows the lexicon's tags as such. */
  origin: 'LEXICON';
}

export const executionKey = (input: RunAutomaticNodeInput) =>
  `lexicon:step:${input.stepId}:run:${input.attempt}`;

/** A run of the lexicon as an execution to record (one document, no batch). */
const lexiconExecution = (
  input: RunAutomaticNodeInput,
  status: 'SUCCESS' | 'FAILURE',
  details: Record<string, unknown>,
) => executionOf(input, status, details, executionKey(input), null);

async function loadRules(knex: Knex, nodeId: number): Promise<(LexiconRule & { tagName: string })[]> {
  return enabledRulesOfNode(knex, nodeId);
}

/** Matches texts in one go (one job of the thread pool): the merged matches of each text. */
type Match = (texts: string[]) => Promise<LexiconMatch[][]>;

/** Default time limit of one document's matching (LEXICON_TIMEOUT_SECONDS). */
export const DEFAULT_LEXICON_TIMEOUT_MS = 120_000;
const HEARTBEAT_MS = 5000;

/** Tags of an audio document: each utterance matched alone, each match linked to the tokens it covers. */
async function audioTags(knex: Knex, documentId: number, match: Match) {
  const tokens = await transcriptTokens(knex, documentId);
  const tags: { tag: Omit<TagRow, 'document_id' | 'step_id' | 'origin'>; tokenIds: number[] }[] = [];
  const utterances: { tokens: TranscriptToken[]; starts: number[]; text: string }[] = [];
  for (let i = 0; i < tokens.length;) {
    let j = i;
    while (j < tokens.length && tokens[j].utteranceId === tokens[i].utteranceId) j++;
    const utterance = tokens.slice(i, j);
    const starts: number[] = [];
    let text = '';
    for (const t of utterance) {
      if (text) text += ' ';
      starts.push(text.length);
      text += t.value;
    }
    utterances.push({ tokens: utterance, starts, text });
    i = j;
  }
  const results = await match(utterances.map((u) => u.text));
  utterances.forEach(({ tokens: utterance, starts }, u) => {
    for (const m of results[u]) {
      const covered = utterance.filter((t, k) => starts[k] < m.end && starts[k] + t.value.length > m.start);
      if (!covered.length) continue;
      const tsStarts = covered.map((t) => t.tsStart).filter((v): v is number => v !== null);
      const tsEnds = covered.map((t) => t.tsEnd).filter((v): v is number => v !== null);
      tags.push({
        tag: {
          ner_tag_type_id: m.nerTagTypeId,
          type: 'ASR_NER_TAG',
          start_offset: null,
          end_offset: null,
          ts_start: tsStarts.length ? Math.min(...tsStarts) : null,
          ts_end: tsEnds.length ? Math.max(...tsEnds) : null,
        },
        tokenIds: covered.map((t) => t.id),
      });
    }
  });
  return tags;
}

async function recordFailure(knex: Knex, input: RunAutomaticNodeInput, message: string) {
  await recordExecution(knex, lexiconExecution(input, 'FAILURE', { message }), 'keep');
}

/** Runs the matching in the pool with a heartbeat; a run past the time limit fails the step, once. */
function threadMatcher(knex: Knex, input: DocumentRun, rules: LexiconRule[], timeoutMs: number): Match {
  return async (texts) => {
    const ctx = activityContext();
    const beat = ctx ? setInterval(() => ctx.heartbeat(), HEARTBEAT_MS) : null;
    try {
      return await matchInThread(rules, texts, timeoutMs, ctx?.cancellationSignal);
    } catch (err) {
      if (!(err instanceof LexiconTimeout)) throw err;
      const message =
        `The lexicon rules took longer than ${duration(timeoutMs)} on this document and were ` +
        "stopped: simplify or remove the slowest REGEX or FUZZY rules in the node's labels, then rerun.";
      await recordFailure(knex, input, message);
      throw ApplicationFailure.nonRetryable(message, 'LexiconTimeout');
    } finally {
      if (beat) clearInterval(beat);
    }
  };
}

export const runLexicon: ActionExecutor = async (run, { knex, lexiconTimeoutMs }) => {
  if (run.documentId === null || run.stepId === null)
    throw ApplicationFailure.nonRetryable('A lexicon node runs for one document', 'BadInput');
  const input: DocumentRun = run as DocumentRun;
  const key = executionKey(input);
  const done = await executionByKey(knex, key);
  if (done?.status === 'SUCCESS') return;

  const doc = await documentById(knex, input.documentId);
  if (!doc) throw ApplicationFailure.nonRetryable('The document no longer exists', 'DocumentGone');
  const rules = await loadRules(knex, input.nodeId);
  const lexicon = compileLexicon(rules);
  if (lexicon.problems.length) {
    const { rule, reason } = lexicon.problems[0];
    const { tagName } = rule as (typeof rules)[number];
    const message =
      `The ${rule.matchingType} rule "${rule.expression}" of the tag "${tagName}" cannot run (${reason}): ` +
      "fix or delete the rule in the node's labels.";
    await recordFailure(knex, input, message);
    throw ApplicationFailure.nonRetryable(message, 'BadMatchingRule');
  }
  const match = threadMatcher(knex, input, rules, lexiconTimeoutMs ?? DEFAULT_LEXICON_TIMEOUT_MS);

  // A transcript (wav, or an imported JSON transcript) is matched by its tokens, whatever the upload type.
  const audio = doc.documentType === 'AUDIOFILE' || (await hasUtterances(knex, input.documentId));
  let textTags: LexiconMatch[] = [];
  let tokenTags: Awaited<ReturnType<typeof audioTags>> = [];
  if (audio) tokenTags = await audioTags(knex, input.documentId, match);
  else {
    const content = await contentOf(knex, input.documentId);
    [textTags] = await match([content?.content ?? '']);
  }

  const base = { document_id: input.documentId, step_id: input.stepId };
  await knex.transaction(async (trx) => {
    if (!(await lockStep(trx, input.stepId)))
      throw ApplicationFailure.nonRetryable('The step no longer exists', 'StepGone');
    await deleteNerTagsOfStep(trx, input.stepId);
    if (audio && tokenTags.length) {
      const ids = await nextNerTagIds(trx, tokenTags.length);
      const rows = tokenTags.map((t, i) => ({ id: ids[i], ...base, ...t.tag, origin: 'LEXICON' }));
      const links = tokenTags.flatMap((t, i) =>
        t.tokenIds.map((tokenId) => ({ ner_tag_id: ids[i], utterance_token_id: tokenId })),
      );
      await insertNerTagRows(trx, rows, links);
    } else if (textTags.length) {
      const rows: TagRow[] = textTags.map((m) => ({
        ...base,
        ner_tag_type_id: m.nerTagTypeId,
        type: 'SPAN_TAG',
        start_offset: m.start,
        end_offset: m.end,
        ts_start: null,
        ts_end: null,
        origin: 'LEXICON',
      }));
      await insertNerTagRows(trx, rows);
    }
    const perTagType: Record<string, number> = {};
    const typeIds = audio ? tokenTags.map((t) => t.tag.ner_tag_type_id) : textTags.map((m) => m.nerTagTypeId);
    for (const id of typeIds) perTagType[id] = (perTagType[id] ?? 0) + 1;
    await recordExecution(
      trx,
      lexiconExecution(input, 'SUCCESS', {
        matches: audio ? tokenTags.length : textTags.length,
        perTagType,
        rules: rules.length,
        kind: audio ? 'audio' : 'text',
      }),
      'update',
    );
  });
};
