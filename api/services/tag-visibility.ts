/**
 * Which of a document's tags a person sees in the workspace (issue 31 section 1, domain/blind-annotation.ts):
 * the document's steps, the caller's modes and the multiprocessed nodes' `annotatorsSeeEachOther` setting,
 * read once per request.
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { nodeMode } from '../../domain/access';
import { tagVisible } from '../../domain/blind-annotation';
import { documentStepNodes } from '../../db/queries/steps';
import { nodesWhereAnnotatorsSeeEachOther } from '../../db/queries/nodes';

export type TagFilter = (tag: { nodeId: number; stepId: number | null }) => boolean;

/** The caller's view of the document's tags. */
export async function tagFilterFor(knex: Knex, user: AuthUser, documentId: number): Promise<TagFilter> {
  const steps = await documentStepNodes(knex, documentId);
  const count = new Map<number, number>();
  for (const s of steps) count.set(s.nodeId, (count.get(s.nodeId) ?? 0) + 1);
  const multi = [...count].filter(([, n]) => n > 1).map(([id]) => id);
  if (!multi.length) return () => true;
  const seeEachOther = await nodesWhereAnnotatorsSeeEachOther(knex, multi);
  const processOf = new Map(steps.map((s) => [s.nodeId, s.processId]));
  const viewer = {
    userId: user.id,
    nodeMode: (nodeId: number) => nodeMode(user, nodeId, processOf.get(nodeId)!),
    seeEachOther: (nodeId: number) => seeEachOther.has(nodeId),
  };
  return (tag) =>
    tagVisible(
      { nodeId: Number(tag.nodeId), stepId: tag.stepId === null ? null : Number(tag.stepId) },
      steps,
      viewer,
    );
}
