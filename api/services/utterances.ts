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

export async function documentOfToken(knex: Knex, tokenId: number): Promise<TokenDocument | undefined> {
  return (await documentsOfTokens(knex, [tokenId])).get(tokenId);
}

export interface TokenDocument {
  documentId: number;
  processId: number;
  utteranceId: number;
}

/** The document, process and utterance of each of the tokens that exist, in one query. */
export async function documentsOfTokens(
  knex: Knex,
  tokenIds: readonly number[],
): Promise<Map<number, TokenDocument>> {
  if (!tokenIds.length) return new Map();
  const rows: (TokenDocument & { id: number | string })[] = await knex('utterance_tokens as t')
    .join('utterances as u', 'u.id', 't.utterance_id')
    .join('documents as d', 'd.id', 'u.document_id')
    .whereIn('t.id', [...tokenIds])
    .select('t.id', 'd.id as documentId', 'd.process_id as processId', 'u.id as utteranceId');
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        documentId: Number(r.documentId),
        processId: Number(r.processId),
        utteranceId: Number(r.utteranceId),
      },
    ]),
  );
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

/** Writes the difference of a plan (see the module header). */
async function persist(
  trx: Knex.Transaction,
  documentId: number,
  plan: TranscriptPlan,
  created: { utterances: Set<number>; tokens: Set<number> },
  deletedTokens: readonly number[],
  restored: readonly number[],
) {
  if (deletedTokens.length) {
    await keepDeletedTokens(trx, documentId, deletedTokens);
    await trx('utterance_tokens')
      .whereIn('id', [...deletedTokens])
      .delete();
  }
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
  if (restored.length) await restoreTokens(trx, documentId, restored);
  if (deletedTokens.length)
    // a token tag left without tokens labels nothing
    await trx('ner_tags')
      .where({ document_id: documentId, type: 'ASR_NER_TAG' })
      .whereNotExists(trx('ner_tag_tokens as k').whereRaw('k.ner_tag_id = ner_tags.id'))
      .delete();
}

/** How long a deleted token can be brought back (the undo stack lives in the page). */
const KEEP_DELETED = '1 day';

/** Keeps the tokens about to be deleted with their hints and token tags (see the module header). */
async function keepDeletedTokens(trx: Knex.Transaction, documentId: number, ids: readonly number[]) {
  await trx('deleted_utterance_tokens')
    .where('deleted_at', '<', trx.raw(`now() - interval '${KEEP_DELETED}'`))
    .delete();
  await trx.raw(
    `insert into deleted_utterance_tokens (token_id, document_id, token, hints, tags)
     select t.id, ?, to_jsonb(t),
            coalesce((select jsonb_agg(to_jsonb(h)) from token_hints h where h.utterance_token_id = t.id), '[]'),
            coalesce((select jsonb_agg(to_jsonb(n)) from ner_tags n
                      join ner_tag_tokens k on k.ner_tag_id = n.id where k.utterance_token_id = t.id), '[]')
     from utterance_tokens t where t.id = any(?::bigint[])
     on conflict (token_id) do update set document_id = excluded.document_id, token = excluded.token,
       hints = excluded.hints, tags = excluded.tags, deleted_at = now()`,
    [documentId, [...ids]],
  );
}

/** The tokens among `ids` the document's deleted tokens still hold (they can be brought back). */
async function restorableTokens(trx: Knex.Transaction, documentId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  const found: (number | string)[] = await trx('deleted_utterance_tokens')
    .where('document_id', documentId)
    .whereIn('token_id', [...ids])
    .where('deleted_at', '>=', trx.raw(`now() - interval '${KEEP_DELETED}'`))
    .pluck('token_id');
  return found.map(Number);
}

/**
 * Brings back what deleted tokens had, once the write has inserted them again under their ids: their
 * confidence, hints and token tag links; a tag removed with its last token comes back with its id and row
 * (while its type, step and users still exist).
 */
async function restoreTokens(trx: Knex.Transaction, documentId: number, ids: readonly number[]) {
  const bind = [[...ids]];
  await trx.raw(
    `update utterance_tokens t set confidence = (d.token->>'confidence')::double precision
     from deleted_utterance_tokens d where d.token_id = t.id and t.id = any(?::bigint[])`,
    bind,
  );
  await trx.raw(
    `insert into token_hints
     select distinct on (r.id) r.* from deleted_utterance_tokens d,
       jsonb_populate_recordset(null::token_hints, d.hints) r
     where d.token_id = any(?::bigint[]) and r.utterance_token_id = d.token_id
     on conflict (id) do nothing`,
    bind,
  );
  await trx.raw(
    `insert into ner_tags
     select distinct on (r.id) r.* from deleted_utterance_tokens d,
       jsonb_populate_recordset(null::ner_tags, d.tags) r
     where d.token_id = any(?::bigint[]) and r.document_id = ?
       and exists (select 1 from ner_tag_types y where y.id = r.ner_tag_type_id)
       and (r.step_id is null or exists (select 1 from steps s where s.id = r.step_id))
       and (r.created_by_id is null or exists (select 1 from users u where u.id = r.created_by_id))
       and (r.last_modified_by_id is null or exists (select 1 from users u where u.id = r.last_modified_by_id))
     on conflict (id) do nothing`,
    [[...ids], documentId],
  );
  await trx.raw(
    `insert into ner_tag_tokens (ner_tag_id, utterance_token_id)
     select n.id, d.token_id from deleted_utterance_tokens d, jsonb_array_elements(d.tags) x
     join ner_tags n on n.id = (x->>'id')::bigint
     where d.token_id = any(?::bigint[]) and n.document_id = ?
     on conflict do nothing`,
    [[...ids], documentId],
  );
  await trx('deleted_utterance_tokens')
    .whereIn('token_id', [...ids])
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
    await persist(
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
  const rows: { tagId: string; tokenId: string; utteranceId: string }[] = await trx('ner_tag_tokens as k')
    .join('utterance_tokens as t', 't.id', 'k.utterance_token_id')
    .whereIn(
      'k.ner_tag_id',
      trx('ner_tag_tokens').whereIn('utterance_token_id', changed).select('ner_tag_id'),
    )
    .select('k.ner_tag_id as tagId', 'k.utterance_token_id as tokenId', 't.utterance_id as utteranceId');
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

/** True when the document has a relation graph (then no token may be deleted: spec 2 section 5). */
export async function hasRelationGraphs(knex: Knex, documentId: number): Promise<boolean> {
  return Boolean(await knex('ner_tag_relation_graphs').where('document_id', documentId).first('id'));
}
