/**
 * Writes of a document's transcript by a person (issue 14 section 2; rules in domain/utterances.ts): every
 * write runs in one transaction that locks the document row, re-checks the caller's editable step of the
 * active node (./tag-steps.ts stepForWrite), reads what the write touches, plans the write with
 * `planTranscriptWrite` and, only when the plan holds, writes its difference. A refused plan changes nothing.
 * What is read (issue 14 section 5: a token edit on a 20,000-token transcript): a write that restructures
 * the list (new utterances, new links) reads the whole transcript; any other write reads only the utterances
 * it names or takes tokens from, their tokens, and their neighbours (`TranscriptSlice`).
 * A deleted token is kept a day with its hints and token tags (`deleted_utterance_tokens`, migration 026): a
 * write that names it again by its id (the undo of the deletion) brings it back with them (`restoreTokens`).
 * The routes have checked WRITE on the node and that the document is of the node's process.
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { HttpError } from '../errors';
import { nextIds } from '../../db/queries/bulk';
import { lockDocument } from '../../db/queries/documents';
import { hasRelationGraphs } from '../../db/queries/relation-graphs';
import {
  documentActors,
  documentUtterances,
  processActorCodes,
  restorableTokens,
  tokensOfTagsOfTokens,
  utteranceById,
  utteranceNeighbourhood,
  utteranceTokens,
  writeTranscriptPlan,
  type TokenRow,
  type UtteranceRow,
} from '../../db/queries/utterances';

// The reads of whose a token or an utterance is are the tables' (db/queries/utterances.ts).
export {
  documentOfToken,
  documentOfUtterance,
  documentsOfTokens,
  type TokenDocument,
} from '../../db/queries/utterances';
export { hasRelationGraphs };
import {
  ARTIFACT_ACTOR,
  planTranscriptWrite,
  restructuresList,
  UTTERANCE_MESSAGES,
  type TokenPatch,
  type TokenState,
  type TranscriptPlan,
  type TranscriptProblem,
  type UtterancePatch,
  type UtteranceState,
} from '../../domain/utterances';
import { stepForWrite } from './tag-steps';
import type { UtteranceDTO } from './documents';

export interface NodeOfWrite {
  nodeId: number;
  processId: number;
}

/** One utterance with its tokens in order. */
export async function utteranceDTO(knex: Knex, id: number): Promise<UtteranceDTO | null> {
  const u = await utteranceById(knex, id);
  if (!u) return null;
  return { ...u, tokens: await utteranceTokens(knex, [id]) };
}

export const transcriptRefused = (p: TranscriptProblem) =>
  new HttpError(400, { message: p.key, errorKey: p.key.split('.').pop(), detail: p.detail });

/** A write as the caller gives it: utterances and tokens with negative (new) ids, tokens deleted. */
export interface ClientWrite {
  patches: UtterancePatch[];
  deletedTokens?: number[];
}

export interface WriteResult {
  plan: TranscriptPlan;
  /** Client ids (negative) of new utterances and tokens mapped to their ids. */
  utteranceIds: Map<number, number>;
  tokenIds: Map<number, number>;
}

/** What a write is about before it is built: utterances, and tokens (their utterances are read). */
export interface WriteFocus {
  utterances?: readonly number[];
  tokens?: readonly number[];
}

/** The state a write is built from and planned over. */
export interface TranscriptState {
  utterances: UtteranceState[];
  tokens: TokenState[];
}

const tokenState = (t: TokenRow): TokenState => ({
  id: t.id,
  utteranceId: t.utteranceId,
  value: t.value,
  tsStart: t.tsStart,
  tsEnd: t.tsEnd,
  properties: t.properties ?? [],
  unclear: t.unclear,
});

/**
 * The part of a document's transcript read so far inside the write's transaction (under the document's
 * lock): utterances with all their tokens. The core utterances are those asked for; each read brings their
 * neighbours too (one statement for the utterances, one for the tokens), or the whole transcript.
 */
class TranscriptSlice {
  private readonly utterances = new Map<number, UtteranceState>();
  private readonly tokens = new Map<number, TokenState>();
  private readonly core = new Set<number>();

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly documentId: number,
  ) {}

  /** Adds the rows given (and their tokens) to the slice. */
  private async add(rows: readonly UtteranceRow[]) {
    const fresh = rows.filter((u) => !this.utterances.has(u.id));
    if (!fresh.length) return;
    const tokens = await utteranceTokens(
      this.trx,
      fresh.map((u) => u.id),
    );
    const byUtterance = new Map<number, number[]>();
    for (const t of tokens) {
      this.tokens.set(t.id, tokenState(t));
      const list = byUtterance.get(t.utteranceId);
      if (list) list.push(t.id);
      else byUtterance.set(t.utteranceId, [t.id]);
    }
    for (const u of fresh)
      this.utterances.set(u.id, {
        id: u.id,
        actor: u.actor,
        prevId: u.prevId,
        nextId: u.nextId,
        tokenIds: byUtterance.get(u.id) ?? [],
      });
  }

  /** The document's utterances among `ids` and those holding the tokens `tokenIds`, with their neighbours. */
  async read(ids: readonly number[], tokenIds: readonly number[] = []) {
    const wanted = new Set(ids.filter((id) => id > 0 && !this.core.has(id)));
    const byToken: number[] = [];
    for (const id of tokenIds) {
      const t = id > 0 ? this.tokens.get(id) : undefined;
      if (!t) {
        if (id > 0) byToken.push(id);
      } else if (!this.core.has(t.utteranceId)) wanted.add(t.utteranceId);
    }
    const rows = await utteranceNeighbourhood(this.trx, this.documentId, [...wanted], byToken);
    for (const u of rows) if (u.core) this.core.add(u.id);
    await this.add(rows);
  }

  /** The whole transcript. */
  async readAll() {
    await this.add(await documentUtterances(this.trx, this.documentId));
  }

  /** True when the token is in the slice read so far. */
  has(tokenId: number): boolean {
    return this.tokens.has(tokenId);
  }

  get links(): ReadonlyMap<number, UtteranceState> {
    return this.utterances;
  }

  state(): TranscriptState {
    return { utterances: [...this.utterances.values()], tokens: [...this.tokens.values()] };
  }
}

/** Real ids for the client's new (negative or absent) ids, taken from the sequences. */
async function allocate(trx: Knex.Transaction, write: ClientWrite) {
  const newUtterances = [...new Set(write.patches.map((p) => p.id).filter((id) => id < 0))];
  const newTokens = [
    ...new Set(write.patches.flatMap((p) => (p.tokens ?? []).map((t) => t.id).filter((id) => id < 0))),
  ];
  const uIds = await nextIds(trx, 'utterances', newUtterances.length);
  const tIds = await nextIds(trx, 'utterance_tokens', newTokens.length);
  return {
    utteranceIds: new Map(newUtterances.map((id, i) => [id, uIds[i]])),
    tokenIds: new Map(newTokens.map((id, i) => [id, tIds[i]])),
  };
}

function mapIds(write: ClientWrite, u: Map<number, number>, t: Map<number, number>): UtterancePatch[] {
  const link = (v: number | null | undefined) => {
    if (v === undefined || v === null || v >= 0) return v;
    const real = u.get(v);
    if (real === undefined)
      throw transcriptRefused({
        key: 'error.utterance.brokenList',
        detail: `${UTTERANCE_MESSAGES['error.utterance.brokenList']} (${v} is not in the write)`,
      });
    return real;
  };
  return write.patches.map((p) => ({
    ...p,
    id: u.get(p.id) ?? p.id,
    prevId: link(p.prevId),
    nextId: link(p.nextId),
    tokens: p.tokens?.map((tp: TokenPatch) => ({ ...tp, id: t.get(tp.id) ?? tp.id })),
  }));
}

/** The actors a changed actor may take: ARTIFACT, the process's actor codes, the document's actors. */
async function allowedActors(trx: Knex.Transaction, processId: number, documentId: number) {
  return new Set<string>([
    ARTIFACT_ACTOR,
    ARTIFACT_ACTOR.toLowerCase(),
    ...(await processActorCodes(trx, processId)),
    ...(await documentActors(trx, documentId)),
  ]);
}

/**
 * Carries out a write of the caller on the document's transcript through the node's editable step; the
 * plan, or a 400 with the problem (nothing written), 409 / 423 for the step. `build` is given the utterances
 * of `focus` (those of the document) with their tokens, read under the lock.
 */
export async function writeTranscript(
  knex: Knex,
  user: AuthUser,
  node: NodeOfWrite,
  documentId: number,
  focus: WriteFocus,
  build: (state: TranscriptState) => ClientWrite,
): Promise<WriteResult> {
  return knex.transaction(async (trx) => {
    await lockDocument(trx, documentId);
    await stepForWrite(trx, user, node, documentId, undefined);
    const slice = new TranscriptSlice(trx, documentId);
    await slice.read(focus.utterances ?? [], focus.tokens ?? []);
    const write = build(slice.state());
    // Read under the document's lock, so a graph saved while the caller's request waited for it counts.
    if (write.deletedTokens?.length && (await hasRelationGraphs(trx, documentId)))
      throw new HttpError(409, {
        message: 'error.token.cannotDelete',
        errorKey: 'cannotDelete',
        detail: `${UTTERANCE_MESSAGES['error.token.cannotDelete']}: the document has relation graphs`,
      });
    const { utteranceIds, tokenIds } = await allocate(trx, write);
    const patches = mapIds(write, utteranceIds, tokenIds);
    const createdUtterances = new Set(utteranceIds.values());
    const createdTokens = new Set(tokenIds.values());
    // what the write names: its utterances, those its tokens come from, and those it deletes tokens of
    const namedTokens = patches.flatMap((p) => (p.tokens ?? []).map((t) => t.id));
    await slice.read(
      patches.map((p) => p.id).filter((id) => !createdUtterances.has(id)),
      [...namedTokens, ...(write.deletedTokens ?? [])].filter((id) => !createdTokens.has(id)),
    );
    // tokens named by an id the document no longer has: deleted ones it can bring back (an undo)
    const restored = await restorableTokens(
      trx,
      documentId,
      namedTokens.filter((id) => id > 0 && !slice.has(id)),
    );
    for (const id of restored) createdTokens.add(id);
    const scope = restructuresList(slice.links, { patches, createdUtterances })
      ? 'document'
      : 'neighbourhood';
    if (scope === 'document') await slice.readAll();
    const state = slice.state();
    const namesActor = createdUtterances.size > 0 || patches.some((p) => p.actor !== undefined);
    const result = planTranscriptWrite(
      state.utterances,
      state.tokens,
      {
        patches,
        createdUtterances,
        createdTokens,
        deletedTokens: write.deletedTokens,
        actors: namesActor ? await allowedActors(trx, node.processId, documentId) : new Set(),
      },
      scope,
    );
    if ('problem' in result) throw transcriptRefused(result.problem);
    await refuseSplitTags(trx, result.plan, write.deletedTokens ?? []);
    await writeTranscriptPlan(
      trx,
      documentId,
      result.plan,
      { utterances: createdUtterances, tokens: createdTokens },
      write.deletedTokens ?? [],
      restored,
    );
    return { plan: result.plan, utteranceIds, tokenIds };
  });
}

/**
 * A token tag labels words of one utterance (the tag API's rule, `speechTokens` in tags.ts): a write that would
 * leave the words of a tag in two utterances (an extraction or a move through a tagged phrase) is refused.
 * Only tags of the tokens the write changes can be affected; their other tokens keep the utterance they have.
 */
async function refuseSplitTags(
  trx: Knex.Transaction,
  plan: TranscriptPlan,
  deletedTokens: readonly number[],
) {
  const changed = [...plan.changedTokens];
  if (!changed.length) return;
  const rows = await tokensOfTagsOfTokens(trx, changed);
  const deleted = new Set(deletedTokens);
  const utterancesOf = new Map<string, Set<number>>();
  for (const r of rows) {
    const token = Number(r.tokenId);
    if (deleted.has(token)) continue;
    const utterance = plan.tokens.get(token)?.utteranceId ?? Number(r.utteranceId);
    const set = utterancesOf.get(r.tagId) ?? new Set<number>();
    set.add(utterance);
    utterancesOf.set(r.tagId, set);
  }
  const split = [...utterancesOf].filter(([, us]) => us.size > 1).map(([tag]) => tag);
  if (split.length)
    throw transcriptRefused({
      key: 'error.token.tagSplit',
      detail: `${UTTERANCE_MESSAGES['error.token.tagSplit']} (tags ${split.join(', ')})`,
    });
}
