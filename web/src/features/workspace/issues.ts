/**
 * Pure helpers of the workspace's issues (rules shared with the API are in domain/issues.ts): the POST
 * api/issues body for an anchor the user chose.
 */
import type { IssueInput } from '@domain/issues';

/**
 * What the issue is raised on: a text range (TEXT), a tag or two (TAG), a relation, saved or a candidate
 * (RELATION, for the relation menu), or transcript tokens (TOKEN, the speech workspace's selection problem).
 */
export type IssueAnchor =
  | { startOffset: number; endOffset: number }
  | { tokenIds: number[] }
  | { tagId: number; toTagId?: number }
  | { relation: { fromId: number; toId: number; relationTypeId: number } };

/** The POST api/issues body of a description on an anchor. */
export function issueInput(
  documentId: number,
  anchor: IssueAnchor,
  text: string,
  stepId: number | null = null,
): IssueInput {
  const base = { docId: documentId, text, stepId };
  if ('tokenIds' in anchor) return { ...base, type: 'TOKEN', tokens: anchor.tokenIds.map((id) => ({ id })) };
  if ('relation' in anchor) return { ...base, type: 'RELATION', relation: anchor.relation };
  if ('tagId' in anchor)
    return {
      ...base,
      type: 'TAG',
      tags:
        anchor.toTagId === undefined
          ? [{ id: anchor.tagId }]
          : [{ id: anchor.tagId }, { id: anchor.toTagId }],
    };
  return { ...base, type: 'TEXT', startOffset: anchor.startOffset, endOffset: anchor.endOffset };
}
