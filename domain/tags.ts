/**
 * Tags of the document workspace (spec 2 sections 3, 4 and 5; issue 11 section 3): labelling types, who wrote
 * a tag, the payloads of the NER-tag and classifier-tag API, the span rule, which nodes take which labelling
 * type, the tag-type option tree of the labelling menu, and the step a person's write goes to. Pure: the API
 * checks with it, the workspace builds its menu with it.
 *
 * Decisions where the spec is silent:
 * - Offsets count UTF-16 code units of the document's content, end exclusive (0 <= start < end <= length):
 *   the unit the lexicon and the external models store and the one a browser string indexes. A span may not
 *   begin or end between the two halves of a surrogate pair (an emoji, a rare CJK character).
 * - SPAN_TAG tags go on text documents (content without utterances); token tags (ASR_NER_TAG) and time spans
 *   (TIMESPAN_TAG) on documents with a transcript (AUDIOFILE). The other way round answers 'Not supported
 *   labelling type'. A token tag labels tokens of ONE utterance (any of them: punctuation may be skipped), its
 *   tsStart/tsEnd the tokens' earliest start and latest end, as the lexicon node writes them. A time span's
 *   tsStart/tsEnd are integer milliseconds like token times, rounded to 10 ms (the spec's "2 decimals" of a
 *   second), 0 <= start < end <= 48 hours.
 * - A tag's node is its tag type's node, and its step is a step of that node in the document that the caller
 *   may edit (domain/steps.ts stepEditRefusal): the one the caller works on, else (a node admin) the master,
 *   else the first by order. The client may name one of those steps (`stepId`, for a node admin editing a
 *   step someone else holds); anything else it says about step, node, document or origin is ignored.
 * - A retype to a tag type of another node moves the tag to the caller's editable step of that node (both
 *   steps must be editable). Types that are not selectable or are disabled cannot be chosen.
 * - `origin` says who wrote the tag (USER, LEXICON, LLM, CUSTOM) and never changes; `lastModifiedById` says
 *   which person last resized or retyped it: a machine-written tag with a lastModifiedById was reviewed.
 * - Classifier tags are one set per node and document (the table is unique on document, node and type, and the
 *   predicates read them per node): any editable step of the node may add or remove one; adding one that is
 *   already set answers it as it is.
 * - Option tree: one root per node (optionId -nodeId, not selectable, coloured by activity type), its tag
 *   types below it; a child's path starts with the node's name.
 */
import type { ActivityType } from './enums';
import { TAG_PATH_SEPARATOR } from './labels';
import type { StepActor, StepRefusal, StepState } from './steps';
import { stepEditRefusal } from './steps';
import type { Violation } from './validation';

export const LabellingTypes = ['SPAN_TAG', 'ASR_NER_TAG', 'TIMESPAN_TAG'] as const;
export type LabellingType = (typeof LabellingTypes)[number];

/** Who wrote a tag: a person through the tag API, a lexicon node, or an external model (LLM or custom). */
export const TagOrigins = ['USER', 'LEXICON', 'LLM', 'CUSTOM'] as const;
export type TagOrigin = (typeof TagOrigins)[number];

/** The labelling types the tag API writes (see the header). */
export const WRITABLE_LABELLING_TYPES: readonly LabellingType[] = ['SPAN_TAG', 'ASR_NER_TAG', 'TIMESPAN_TAG'];

/** The labelling types of documents with a transcript. */
export const SPEECH_LABELLING_TYPES: readonly LabellingType[] = ['ASR_NER_TAG', 'TIMESPAN_TAG'];

/** Node types whose steps take tags of each labelling type (the NER node types of domain/labels.ts). */
export const TAGGING_NODE_TYPES: Readonly<Record<LabellingType, readonly ActivityType[]>> = {
  SPAN_TAG: ['SPAN', 'LEXICON'],
  ASR_NER_TAG: ['SPAN', 'LEXICON'],
  TIMESPAN_TAG: ['SPAN', 'LEXICON'],
};

export const supportsLabelling = (activityType: string, type: LabellingType): boolean =>
  (TAGGING_NODE_TYPES[type] as readonly string[]).includes(activityType);

// --- payloads ---

/** The tag type as a tag carries it (spec 2 section 3: nerTagType). */
export interface TagNerTagTypeDTO {
  id: number;
  name: string;
  backgroundColor: string;
  textColor: string;
  nodeId: number;
  path: string;
}

/** A tag (spec 2 section 3 Tag), as GET api/ner-tags answers it. */
export interface NerTagDTO {
  id: number;
  type: LabellingType;
  nerTagTypeId: number;
  nerTagType: TagNerTagTypeDTO;
  /** The tokens of an ASR_NER_TAG (empty for text spans). */
  utteranceTokens: { id: number }[];
  /** UTF-16 offsets into the content, end exclusive (SPAN_TAG; null otherwise). */
  startOffset: number | null;
  endOffset: number | null;
  tsStart: number | null;
  tsEnd: number | null;
  stepId: number | null;
  nodeId: number;
  documentId: number;
  origin: TagOrigin;
  createdById: number | null;
  lastModifiedById: number | null;
}

/** Body of POST api/ner-tags. */
export interface NerTagInput {
  documentId: number;
  nerTagTypeId: number;
  type?: LabellingType;
  startOffset: number;
  endOffset: number;
  /** One of the caller's editable steps of the type's node (optional; see the header). */
  stepId?: number | null;
}

/** Body of POST api/ner-tags/batch: one tag type over many spans ("label all occurrences"), all or nothing. */
export interface NerTagBatchInput {
  documentId: number;
  nerTagTypeId: number;
  stepId?: number | null;
  spans: { startOffset: number; endOffset: number }[];
}

/** Body of PUT api/ner-tags (resize and/or retype); the tag as GET answers it may be sent back whole. */
export interface NerTagUpdate {
  id: number;
  nerTagTypeId?: number | null;
  nerTagType?: { id: number } | null;
  startOffset?: number | null;
  endOffset?: number | null;
}

/** A document's classifier tag, as GET api/classifier-tags answers it. */
export interface ClassifierTagDTO {
  id: number;
  documentId: number;
  stepId: number | null;
  nodeId: number;
  classifierTypeId: number;
  classifierType: { id: number; name: string; backgroundColor: string; nodeId: number };
  origin: TagOrigin;
  createdById: number | null;
}

/** Body of POST api/classifier-tags. */
export interface ClassifierTagInput {
  documentId: number;
  classifierTypeId: number;
  stepId?: number | null;
}

/** Most spans one batch may carry. */
export const TAG_BATCH_MAX = 5000;

/**
 * Message keys of the tag rules and refusals, with their English text (the web's translation files must hold
 * them, Polish alongside). The API answers the refusals as `{message: key, detail}`.
 */
export const TAG_MESSAGES = {
  'soaApp.nerTag.offsetRange': 'The tag must lie within the document text.',
  'soaApp.nerTag.offsetOrder': 'The end of a tag must come after its start.',
  'soaApp.nerTag.splitCharacter': 'A tag cannot begin or end inside a character.',
  'soaApp.nerTag.typeNotSelectable': 'This label cannot be chosen.',
  'soaApp.nerTag.timeRange': 'The tag must lie within the recording (0 to 48 hours).',
  'soaApp.nerTag.timeOrder': 'The end of a tag must come after its start.',
  'soaApp.nerTag.tokens': 'A token tag needs tokens of one utterance of the document.',
  'error.labellingType': 'Not supported labelling type',
  'error.tag.nodeUndefined': 'Node could not be defined',
  'error.tag.stepUndefined': 'Step could not be defined',
  'error.tag.stepNotEditable': 'The step is not editable.',
  'error.tag.wrongStep': 'The step is not a step of the label’s node in this document.',
} as const;

// --- the span rule ---

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** True when `at` falls between the halves of a surrogate pair of `text`. */
const splitsPair = (text: string, at: number) =>
  at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

/**
 * What is wrong with a span over the content (UTF-16 offsets, end exclusive), by field; empty when it is a
 * valid span: 0 <= start < end <= content.length, neither end inside a surrogate pair.
 */
export function spanViolations(
  startOffset: number,
  endOffset: number,
  content: string,
): { field: 'startOffset' | 'endOffset'; violation: Violation }[] {
  const out: { field: 'startOffset' | 'endOffset'; violation: Violation }[] = [];
  const range = (max: number): Violation => ({
    code: 'Size',
    key: 'soaApp.nerTag.offsetRange',
    params: { min: 0, max },
  });
  const whole = (n: number) => Number.isSafeInteger(n);
  if (!whole(startOffset) || startOffset < 0 || startOffset >= Math.max(content.length, 1))
    out.push({ field: 'startOffset', violation: range(Math.max(content.length - 1, 0)) });
  if (!whole(endOffset) || endOffset < 1 || endOffset > content.length)
    out.push({ field: 'endOffset', violation: range(content.length) });
  if (out.length) return out;
  if (endOffset <= startOffset)
    return [{ field: 'endOffset', violation: { code: 'Size', key: 'soaApp.nerTag.offsetOrder' } }];
  for (const [field, at] of [
    ['startOffset', startOffset],
    ['endOffset', endOffset],
  ] as const)
    if (splitsPair(content, at))
      out.push({ field, violation: { code: 'Match', key: 'soaApp.nerTag.splitCharacter' } });
  return out;
}

/** One English sentence for a refused span (the 400's detail). */
export function spanProblem(startOffset: number, endOffset: number, content: string): string | null {
  const v = spanViolations(startOffset, endOffset, content);
  if (!v.length) return null;
  const key = v[0].violation.key;
  if (key === 'soaApp.nerTag.splitCharacter') return TAG_MESSAGES[key];
  if (key === 'soaApp.nerTag.offsetOrder')
    return `The end of a tag (${endOffset}) must come after its start (${startOffset})`;
  return `The tag ${startOffset}-${endOffset} must lie within the document text (0 <= start < end <= ${content.length})`;
}

// --- the time-span rule ---

/** Longest recording (domain/transcript.ts MAX_TRANSCRIPT_MS): 48 hours in ms. */
const MAX_TAG_MS = 48 * 60 * 60 * 1000;

/** A tag time in ms rounded to 10 ms: 2 decimals of a second (spec 2 section 9). */
export const roundTagMs = (ms: number): number => Math.round(ms / 10) * 10;

/** What is wrong with a time span (ms, already rounded), by field; empty when 0 <= start < end <= 48 h. */
export function timeSpanViolations(
  tsStart: number,
  tsEnd: number,
): { field: 'tsStart' | 'tsEnd'; violation: Violation }[] {
  const range = (v: number) => !Number.isFinite(v) || v < 0 || v > MAX_TAG_MS;
  const out: { field: 'tsStart' | 'tsEnd'; violation: Violation }[] = [];
  for (const [field, v] of [
    ['tsStart', tsStart],
    ['tsEnd', tsEnd],
  ] as const)
    if (range(v))
      out.push({
        field,
        violation: { code: 'Size', key: 'soaApp.nerTag.timeRange', params: { min: 0, max: MAX_TAG_MS } },
      });
  if (!out.length && tsEnd <= tsStart)
    out.push({ field: 'tsEnd', violation: { code: 'Size', key: 'soaApp.nerTag.timeOrder' } });
  return out;
}

// --- the step a write goes to ---

export type TagStepChoice<S> = { step: S } | { refusal: StepRefusal };

const refusal = (code: string, message: string): { refusal: StepRefusal } => ({ refusal: { code, message } });

/**
 * The step of a node a person's tag write goes to (see the header), from the node's steps in the document.
 * Refusals: `stepUndefined` (the node has no step in the document), `wrongStep` (the wanted step is not one of
 * them), or the edit refusal of the most telling step (`notWaiting`, `notStarted`, `assignedToOther`,
 * `documentBlocked`).
 */
export function chooseTagStep<S extends Pick<StepState, 'id' | 'status' | 'blockedBy' | 'master' | 'order'>>(
  nodeSteps: readonly S[],
  actor: StepActor,
  documentBlockedBy: number | null,
  wantedStepId?: number | null,
): TagStepChoice<S> {
  const steps = [...nodeSteps].sort((a, b) => a.order - b.order);
  if (!steps.length) return refusal('stepUndefined', TAG_MESSAGES['error.tag.stepUndefined']);
  const why = (s: S) => stepEditRefusal(s, actor, documentBlockedBy);
  if (wantedStepId !== undefined && wantedStepId !== null) {
    const wanted = steps.find((s) => s.id === wantedStepId);
    if (!wanted) return refusal('wrongStep', TAG_MESSAGES['error.tag.wrongStep']);
    const r = why(wanted);
    return r ? { refusal: r } : { step: wanted };
  }
  const editable = steps.filter((s) => why(s) === null);
  const chosen =
    editable.find((s) => s.blockedBy === actor.userId) ?? editable.find((s) => s.master) ?? editable[0];
  if (chosen) return { step: chosen };
  const telling =
    steps.find((s) => s.status === 'WAITING' && s.blockedBy === actor.userId) ??
    steps.find((s) => s.status === 'WAITING') ??
    steps[0];
  return { refusal: why(telling)! };
}

// --- the labelling menu's option tree (spec 2 section 3 Tag-type option) ---

export interface TagTypeOption {
  /** The tag type's id; -nodeId for a node's root entry. */
  optionId: number;
  name: string;
  backgroundColor: string;
  children: TagTypeOption[];
  isRoot: boolean;
  /** The parent tag type, -nodeId under a root, null for a root. */
  parentId: number | null;
  rootId: number;
  /** Names from the root (the node's name first) joined by TAG_PATH_SEPARATOR. */
  path: string;
  selectable: boolean;
  nodeId: number;
}

/** Root colours by activity type (spec 2 section 3): span amber, file parser blue, otherwise a red. */
export const ROOT_COLORS = { SPAN: '#ffc107', FILE_PARSER: '#0d6efd', OTHER: '#dc3545' } as const;

export function rootColor(activityType: string): string {
  if (activityType === 'SPAN') return ROOT_COLORS.SPAN;
  if (activityType === 'FILE_PARSER') return ROOT_COLORS.FILE_PARSER;
  return ROOT_COLORS.OTHER;
}

export interface OptionNode {
  id: number;
  name: string;
  activityType: string;
}

export interface OptionTagType {
  id: number;
  nodeId: number;
  parentId: number | null;
  name: string;
  backgroundColor: string;
  selectable: boolean;
  disabled: boolean;
}

/**
 * The option tree of the labelling menu: a root per node (in the order given) that supports the labelling
 * type, with the node's tag types below it as their tree (in the order given). Pass only the nodes of the
 * steps the user may edit (spec: "only nodes that support the tagging type and belong to editable steps").
 */
export function buildTagTypeOptions(
  nodes: readonly OptionNode[],
  tagTypes: readonly OptionTagType[],
  type: LabellingType = 'SPAN_TAG',
): TagTypeOption[] {
  const roots: TagTypeOption[] = [];
  for (const node of nodes) {
    if (!supportsLabelling(node.activityType, type)) continue;
    if (roots.some((r) => r.nodeId === node.id)) continue;
    const root: TagTypeOption = {
      optionId: -node.id,
      name: node.name,
      backgroundColor: rootColor(node.activityType),
      children: [],
      isRoot: true,
      parentId: null,
      rootId: -node.id,
      path: node.name,
      selectable: false,
      nodeId: node.id,
    };
    const own = tagTypes.filter((t) => t.nodeId === node.id);
    const byId = new Map(own.map((t) => [t.id, t]));
    const options = new Map<number, TagTypeOption>();
    const optionOf = (t: OptionTagType, seen: Set<number>): TagTypeOption => {
      const done = options.get(t.id);
      if (done) return done;
      const parent = t.parentId !== null && !seen.has(t.parentId) ? byId.get(t.parentId) : undefined;
      const parentOption = parent ? optionOf(parent, new Set([...seen, t.id])) : root;
      const option: TagTypeOption = {
        optionId: t.id,
        name: t.name,
        backgroundColor: t.backgroundColor,
        children: [],
        isRoot: false,
        parentId: parent ? parent.id : root.optionId,
        rootId: root.optionId,
        path: `${parentOption.path}${TAG_PATH_SEPARATOR}${t.name}`,
        selectable: t.selectable && !t.disabled,
        nodeId: node.id,
      };
      options.set(t.id, option);
      parentOption.children.push(option);
      return option;
    };
    for (const t of own) optionOf(t, new Set([t.id]));
    // Children in the order the tag types were given, whatever order the recursion reached them in.
    const order = new Map(own.map((t, i) => [t.id, i]));
    const sortTree = (o: TagTypeOption) => {
      o.children.sort((a, b) => order.get(a.optionId)! - order.get(b.optionId)!);
      o.children.forEach(sortTree);
    };
    sortTree(root);
    roots.push(root);
  }
  return roots;
}

/** The breadcrumb of an option's path: at most its last 3 steps, a longer path shortened with '...->'. */
export function breadcrumb(path: string): string {
  const steps = path.split(TAG_PATH_SEPARATOR);
  return steps.length > 3 ? `...-> ${steps.slice(-3).join(TAG_PATH_SEPARATOR)}` : path;
}

/** Every option of the tree, depth first (for search and lookups). */
export function flattenOptions(options: readonly TagTypeOption[]): TagTypeOption[] {
  const out: TagTypeOption[] = [];
  const walk = (o: TagTypeOption) => {
    out.push(o);
    o.children.forEach(walk);
  };
  options.forEach(walk);
  return out;
}
