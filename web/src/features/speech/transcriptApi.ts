/**
 * The speech workspace's calls (docs/api-speech.md, spec 2 section 7): the transcript (GET
 * api/asr-documents/{id}/utterances), a token's hints (GET api/documents/{id}/top/hints?utteranceTokenId), the
 * utterance writes (PUT api/utterances?nodeId, POST api/utterances/batch?nodeId) and the token writes (POST/PUT/DELETE
 * api/utterance-tokens?nodeId), and the token and time-span tags on the tag API. Writes name the active step's
 * node; a write is followed by a refetch of the transcript (spec 2 section 4), but for token updates, whose
 * answers go into the cached transcript (hooks/useTranscriptEditor.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import type { NerTagDTO, TagTypeOption } from '@domain/tags';
import type { SplitTokenPatch } from '@domain/transcript-edit';
import type { TokenPatch } from '@domain/utterances';
import { http } from '../../api/client';
import { workspaceKeys } from '../workspace/api';

export type TokenProperty = 'DOUBLE_SPEECH' | 'INAUDIBLE' | 'NOISE';
export const TOKEN_PROPERTIES: readonly TokenProperty[] = ['DOUBLE_SPEECH', 'INAUDIBLE', 'NOISE'];

export interface TokenDTO {
  id: number;
  utteranceId: number;
  value: string;
  tsStart: number | null;
  tsEnd: number | null;
  confidence?: number | null;
  properties: TokenProperty[];
  unclear: boolean;
}

export interface UtteranceDTO {
  id: number;
  docId?: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens: TokenDTO[];
}

export interface HintDTO {
  id: number;
  utteranceTokenId: number;
  value: string;
  confidence: number | null;
}

export const transcriptKeys = {
  utterances: (documentId: number) => [...workspaceKeys.all, 'utterances', documentId] as const,
  hints: (documentId: number, tokenId: number) =>
    [...workspaceKeys.all, 'hints', documentId, tokenId] as const,
  options: (documentId: number, nodeId: number, type: 'ASR_NER_TAG' | 'TIMESPAN_TAG') =>
    [...workspaceKeys.all, 'tag-options', documentId, nodeId, type] as const,
};

export const transcriptQueries = {
  utterances: (documentId: number) =>
    queryOptions({
      queryKey: transcriptKeys.utterances(documentId),
      queryFn: ({ signal }) =>
        http.get<UtteranceDTO[]>(`api/asr-documents/${documentId}/utterances`, { signal }),
      // Fresh for a few seconds: the workspace route asks for it while the workspace's code loads, and the
      // workspace mounting then must not fetch the 2 MB again (writes refetch it explicitly).
      staleTime: 10_000,
    }),
  hints: (documentId: number, tokenId: number) =>
    queryOptions({
      queryKey: transcriptKeys.hints(documentId, tokenId),
      queryFn: ({ signal }) =>
        http.get<HintDTO[]>(`api/documents/${documentId}/top/hints`, {
          query: { utteranceTokenId: tokenId },
          signal,
        }),
      staleTime: 0,
    }),
  options: (documentId: number, nodeId: number, type: 'ASR_NER_TAG' | 'TIMESPAN_TAG') =>
    queryOptions({
      queryKey: transcriptKeys.options(documentId, nodeId, type),
      queryFn: ({ signal }) =>
        http.get<TagTypeOption[]>('api/root-ner-tag-types', {
          query: { documentId, nodeIds: nodeId, labellingType: type },
          signal,
        }),
    }),
};

/** A token as the token routes take it. */
export interface TokenInput {
  id?: number;
  utteranceId: number;
  value: string;
  tsStart: number;
  tsEnd: number;
  properties?: TokenProperty[];
  unclear?: boolean;
}

/** An utterance as PUT api/utterances takes it: absent fields keep what is stored. */
export interface UtteranceInput {
  id: number;
  actor?: string;
  prevId?: number | null;
  nextId?: number | null;
  /**
   * The whole token list in order (tokens of other utterances named here move here); a token may carry new
   * fields (an undo writes them all back), and a new token (id from -1 down) its value and times.
   */
  tokens?: (SplitTokenPatch | TokenPatch)[];
}

export const transcriptCalls = {
  updateUtterance: (nodeId: number, u: UtteranceInput) =>
    http.put<UtteranceDTO>('api/utterances', u, { query: { nodeId } }),
  /**
   * New utterances (ids from -1 down) and changed ones in one write, with the tokens it deletes in the same
   * transaction (an undo or redo); answers the real ids.
   */
  saveBatch: (nodeId: number, docId: number, batch: UtteranceInput[], deletedTokens: number[] = []) => {
    const items = batch.map((u) => ({ ...u, docId }));
    return http.post<{ utterances: UtteranceDTO[]; ids: Record<string, number> }>(
      'api/utterances/batch',
      deletedTokens.length ? { batch: items, deletedTokens } : items,
      { query: { nodeId } },
    );
  },
  createToken: (nodeId: number, token: TokenInput) =>
    http.post<TokenDTO>('api/utterance-tokens', token, { query: { nodeId } }),
  updateToken: (nodeId: number, token: TokenInput & { id: number }) =>
    http.put<TokenDTO>('api/utterance-tokens', token, { query: { nodeId } }),
  deleteToken: (nodeId: number, id: number) =>
    http.delete(`api/utterance-tokens/${id}`, { query: { nodeId } }),
  tagTokens: (documentId: number, nerTagTypeId: number, tokenIds: number[]) =>
    http.post<NerTagDTO>('api/ner-tags', {
      documentId,
      nerTagTypeId,
      type: 'ASR_NER_TAG',
      utteranceTokens: tokenIds.map((id) => ({ id })),
    }),
  tagTimespan: (documentId: number, nerTagTypeId: number, tsStart: number, tsEnd: number) =>
    http.post<NerTagDTO>('api/ner-tags', { documentId, nerTagTypeId, type: 'TIMESPAN_TAG', tsStart, tsEnd }),
  /** A retype and (a time span) a resize; absent fields keep what is stored. */
  updateTag: (id: number, change: { nerTagTypeId?: number; tsStart?: number; tsEnd?: number }) =>
    http.put<NerTagDTO>('api/ner-tags', { id, ...change }),
};
