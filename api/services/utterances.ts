/**
 * Writes of a document's transcript by a person (issue 14 section 2; rules in domain/utterances.ts): every
 * write runs in one transaction that locks the document row, re-checks the caller's editable step of the
 * active node (./tag-steps.ts stepForWrite), reads what the write touches, plans the write with
 * `planTranscriptWrite` and, only when the plan holds, writes its difference. A refused plan changes nothing.
 * What is read (issue 14 section 5: a token edit on a 20,000-token transcript): a write that restructures
 * the list (new utterances, new links) reads the whole transcript; any other write reads only the utterances
 * it names or takes tokens from, their tokens, and their neighbours (`TranscriptSlice`).
 * The routes have checked WRITE on the node and that the document is of the node's process.
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { HttpError } from '../errors';
import { nextIds } from '../../db/queries/bulk';
import {
  documentUtterances,
  utteranceNeighbourhood,
  utteranceTokens,
  type TokenRow,
  type UtteranceRow,
  UTTERANCE_COLUMNS,
} from '../../db/queries/utterances';
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

/** The document (and process) an utterance or a token belongs to. */
export async function documentOfUtterance(
  knex: Knex,
  utteranceId: number,
): Promise<{ documentId: number; processId: number } | undefined> {
  return knex('utterances as u')
    .join('documents as d', 'd.id', 'u.document_id')
    .where('u.id', utteranceId)
    .first('d.id as documentId', 'd.process_id as processId');
}

export async function documentOfToken(
  knex: Knex,
  tokenId: number,
): Promise<{ documentId: number; processId: number; utteranceId: number } | undefined> {
  return knex('utterance_tokens as t')
    .join('utterances as u', 'u.id', 't.utterance_id')
    .join('documents as d', 'd.id', 'u.document_id')
    .where('t.id', tokenId)
    .first('d.id as documentId', 'd.process_id as processId', 'u.id as utteranceId');
}

/** One utterance with its tokens in order. */
export async function utteranceDTO(knex: Knex, id: number): Promise<UtteranceDTO | null> {
  const u: UtteranceRow | undefined = await knex('utterances').where('id', id).first(UTTERANCE_COLUMNS);
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

/** Writes the difference of a plan (see the module header). */
async function persist(
  trx: Knex.Transaction,
  documentId: number,
  plan: TranscriptPlan,
  created: { utterances: Set<number>; tokens: Set<number> },
  deletedTokens: readonly number[],
) {
  if (deletedTokens.length)
    await trx('utterance_tokens')
      .whereIn('id', [...deletedTokens])
      .delete();
  const byId = new Map(plan.utterances.map((u) => [u.id, u]));
  const fresh = [...created.utterances].map((id) => byId.get(id)!).filter(Boolean);
  if (fresh.length)
    await trx('utterances').insert(
      fresh.map((u) => ({
        id: u.id,
        document_id: documentId,
        actor: u.actor,
        prev_id: u.prevId,
        next_id: u.nextId,
      })),
    );
  for (const id of plan.touched) {
    if (created.utterances.has(id)) continue;
    const u = byId.get(id)!;
    await trx('utterances').where('id', id).update({ actor: u.actor, prev_id: u.prevId, next_id: u.nextId });
  }
  // tokens of the utterances whose list changed, and tokens changed in place
  const written = new Set<number>(plan.changedTokens);
  for (const id of plan.touched) for (const tid of byId.get(id)!.tokenIds) written.add(tid);
  const rows = [...written].map((tid) => {
    const t = plan.tokens.get(tid)!;
    return { ...t, position: byId.get(t.utteranceId)!.tokenIds.indexOf(tid) };
  });
  const toRow = (t: TokenState & { position: number }) => ({
    id: t.id,
    utterance_id: t.utteranceId,
    position: t.position,
    value: t.value,
    ts_start: t.tsStart,
    ts_end: t.tsEnd,
    properties: JSON.stringify(t.properties),
    unclear: t.unclear,
  });
  const inserts = rows.filter((t) => created.tokens.has(t.id));
  if (inserts.length) await trx('utterance_tokens').insert(inserts.map(toRow));
  const updates = rows.filter((t) => !created.tokens.has(t.id));
  if (updates.length) {
    const values = updates.map(
      () => '(?::bigint, ?::bigint, ?::int, ?::text, ?::int, ?::int, ?::jsonb, ?::boolean)',
    );
    await trx.raw(
      `update utterance_tokens as t set utterance_id = v.u, position = v.p, value = v.value,
         ts_start = v.s, ts_end = v.e, properties = v.props, unclear = v.unclear
       from (values ${values.join(', ')}) as v(id, u, p, value, s, e, props, unclear)
       where t.id = v.id`,
      updates.flatMap((t) => Object.values(toRow(t))),
    );
  }
  if (plan.removed.length) await trx('utterances').whereIn('id', plan.removed).delete();
  if (deletedTokens.length)
    // a token tag left without tokens labels nothing
    await trx('ner_tags')
      .where({ document_id: documentId, type: 'ASR_NER_TAG' })
      .whereNotExists(trx('ner_tag_tokens as k').whereRaw('k.ner_tag_id = ner_tags.id'))
      .delete();
}

/** The actors a changed actor may take: ARTIFACT, the process's actor codes, the document's actors. */
async function allowedActors(trx: Knex.Transaction, processId: number, documentId: number) {
  return new Set<string>([
    ARTIFACT_ACTOR,
    ARTIFACT_ACTOR.toLowerCase(),
    ...(await trx('process_actors').where('process_id', processId).pluck('actor')),
    ...(await trx('utterances').where('document_id', documentId).distinct().pluck('actor')),
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
    await trx('documents').where('id', documentId).forUpdate().first('id');
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
    await slice.read(
      patches.map((p) => p.id).filter((id) => !createdUtterances.has(id)),
      [...patches.flatMap((p) => (p.tokens ?? []).map((t) => t.id)), ...(write.deletedTokens ?? [])].filter(
        (id) => !createdTokens.has(id),
      ),
    );
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
    await persist(
      trx,
      documentId,
      result.plan,
      { utterances: createdUtterances, tokens: createdTokens },
      write.deletedTokens ?? [],
    );
    return { plan: result.plan, utteranceIds, tokenIds };
  });
}

/** True when the document has a relation graph (then no token may be deleted: spec 2 section 5). */
export async function hasRelationGraphs(knex: Knex, documentId: number): Promise<boolean> {
  return Boolean(await knex('ner_tag_relation_graphs').where('document_id', documentId).first('id'));
}
