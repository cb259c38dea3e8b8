/**
 * Wildcards (spec 3 sections 3, 4 and 9): the `${...}` placeholders that prompts, mail templates, request
 * bodies, file contents, file names and the RAG template may hold. This module owns the catalogue, the
 * per-node wildcards generated from a node's previous nodes, which of them an editor may offer (by editor
 * context and by the node's trigger) and the check for unknown tokens in a text. Rendering happens later,
 * where the data are.
 */

export const WildcardCategories = ['PROCESS', 'NODE', 'DOCUMENT', 'UTILS', 'CLF_TAGS'] as const;
export type WildcardCategory = (typeof WildcardCategories)[number];

/**
 * UNIVERSAL: available whatever the trigger; INDIVIDUAL: data of one document (trigger ALWAYS);
 * AGGREGATED: data gathered over many executions (triggers CRON and THRESHOLD).
 */
export const WildcardModes = ['UNIVERSAL', 'AGGREGATED', 'INDIVIDUAL'] as const;
export type WildcardMode = (typeof WildcardModes)[number];

/** Where the editor is: a node's text fields, the RAG template, a file name field, anything else. */
export const WildcardContexts = ['node', 'rag', 'filename', 'other'] as const;
export type WildcardContext = (typeof WildcardContexts)[number];

export type WildcardTrigger = 'ALWAYS' | 'CRON' | 'THRESHOLD';

export interface Wildcard {
  /** The token itself, e.g. `${document.id}`. */
  value: string;
  /** English label for the picker (per-node ones carry the node's name). */
  label: string;
  category: WildcardCategory;
  mode: WildcardMode;
  /**
   * For a wildcard a previous node provides: which result of which node (and, for a classifier label, which
   * label), so that a picker can name them in the user's language instead of showing the token's ids.
   */
  source?: { kind: NodeWildcardKind; nodeName: string; labelName?: string };
}

/** The results of previous nodes a wildcard can stand for. */
export type NodeWildcardKind =
  | 'llmResponse'
  | 'driveFileId'
  | 'driveFileUrl'
  | 'sftpFileAddress'
  | 'responseBody'
  | 'selectedLabels'
  | 'labelSelected';

interface CatalogueEntry extends Wildcard {
  /** Editor contexts that may offer it. */
  contexts: readonly WildcardContext[];
  /**
   * An INDIVIDUAL wildcard that also renders over the documents collected by a CRON or THRESHOLD node (the
   * values of each document joined); offered there as AGGREGATED, except in file names.
   */
  aggregates?: boolean;
}

const ALL_BUT_RAG: readonly WildcardContext[] = ['node', 'filename', 'other'];
/** Long or multi-line values have no place in a file name. */
const TEXT_ONLY: readonly WildcardContext[] = ['node', 'other'];
const EVERYWHERE: readonly WildcardContext[] = ['node', 'rag', 'filename', 'other'];

export const RAG_INPUT_WILDCARD = '${process.rag.input}';
export const RAG_DOCUMENTS_WILDCARD = '${process.rag.documents}';

const CATALOGUE: readonly CatalogueEntry[] = [
  {
    value: '${document.id}',
    label: 'Document ID',
    category: 'DOCUMENT',
    mode: 'INDIVIDUAL',
    contexts: ALL_BUT_RAG,
    aggregates: true,
  },
  {
    value: '${document.filename}',
    label: 'Document file name',
    category: 'DOCUMENT',
    mode: 'INDIVIDUAL',
    contexts: ALL_BUT_RAG,
    aggregates: true,
  },
  {
    value: '${document.content}',
    label: 'Document content',
    category: 'DOCUMENT',
    mode: 'INDIVIDUAL',
    contexts: TEXT_ONLY,
    aggregates: true,
  },
  {
    value: '${document.clfTags}',
    label: 'Document classifier labels',
    category: 'DOCUMENT',
    mode: 'INDIVIDUAL',
    contexts: TEXT_ONLY,
    aggregates: true,
  },
  {
    value: '${document.spanTags}',
    label: 'Document entity labels',
    category: 'DOCUMENT',
    mode: 'INDIVIDUAL',
    contexts: TEXT_ONLY,
    aggregates: true,
  },
  {
    value: '${process.id}',
    label: 'Process ID',
    category: 'PROCESS',
    mode: 'UNIVERSAL',
    contexts: EVERYWHERE,
  },
  {
    value: '${process.name}',
    label: 'Process name',
    category: 'PROCESS',
    mode: 'UNIVERSAL',
    contexts: EVERYWHERE,
  },
  {
    value: RAG_INPUT_WILDCARD,
    label: 'RAG query',
    category: 'PROCESS',
    mode: 'UNIVERSAL',
    contexts: ['rag'],
  },
  {
    value: RAG_DOCUMENTS_WILDCARD,
    label: 'RAG matched documents',
    category: 'PROCESS',
    mode: 'UNIVERSAL',
    contexts: ['rag'],
  },
  {
    value: '${util.datetime}',
    label: 'Date and time',
    category: 'UTILS',
    mode: 'UNIVERSAL',
    contexts: EVERYWHERE,
  },
  { value: '${util.date}', label: 'Date', category: 'UTILS', mode: 'UNIVERSAL', contexts: EVERYWHERE },
  {
    value: '${util.timestamp}',
    label: 'Timestamp',
    category: 'UTILS',
    mode: 'UNIVERSAL',
    contexts: EVERYWHERE,
  },
];

/** The static catalogue (document, process, RAG and utility wildcards). */
export const WILDCARD_CATALOGUE: readonly Wildcard[] = CATALOGUE.map(({ contexts: _c, ...w }) => w);

/** A previous node as the wildcard generator needs it; CLF nodes bring their classifier types. */
export interface WildcardSourceNode {
  id: number;
  name: string;
  activityType: string;
  classifierTypes?: readonly { id: number; name: string }[];
}

interface NodeWildcard extends CatalogueEntry {
  nodeId: number;
}

function nodeEntries(node: WildcardSourceNode): NodeWildcard[] {
  const base = (
    suffix: string,
    kind: NodeWildcardKind,
    label: string,
    contexts: readonly WildcardContext[],
    category: WildcardCategory = 'NODE',
    labelName?: string,
  ) => ({
    value: `\${node.${node.id}.${suffix}}`,
    label: `${node.name}: ${label}`,
    category,
    mode: 'INDIVIDUAL' as const,
    source:
      labelName === undefined ? { kind, nodeName: node.name } : { kind, nodeName: node.name, labelName },
    contexts,
    nodeId: node.id,
    aggregates: true,
  });
  switch (node.activityType) {
    case 'LLM_PROMPT':
      return [base('llmresponse', 'llmResponse', 'LLM response', TEXT_ONLY)];
    case 'SEND_TO_GOOGLE_DRIVE':
      return [
        base('googledriveresult.fileid', 'driveFileId', 'cloud-drive file ID', ALL_BUT_RAG),
        base('googledriveresult.url', 'driveFileUrl', 'cloud-drive file URL', TEXT_ONLY),
      ];
    case 'SEND_TO_SFTP':
      return [base('sftpresult.fileaddress', 'sftpFileAddress', 'SFTP file address', TEXT_ONLY)];
    case 'SEND_REQUEST':
      return [base('sendrequestresult.body', 'responseBody', 'response body', TEXT_ONLY)];
    case 'CLF':
      return [
        base('clftagtypes.selected', 'selectedLabels', 'selected labels', ALL_BUT_RAG, 'CLF_TAGS'),
        ...(node.classifierTypes ?? []).map((t) => ({
          ...base(
            `clftagtypes.${t.id}.isselected`,
            'labelSelected',
            `label "${t.name}" selected`,
            ALL_BUT_RAG,
            'CLF_TAGS',
            t.name,
          ),
          // A yes/no of one document has no meaning over many.
          aggregates: false,
        })),
      ];
    default:
      return [];
  }
}

/** Wildcards the results of the given (previous) nodes provide, in node order. */
export function nodeWildcards(previousNodes: readonly WildcardSourceNode[]): Wildcard[] {
  return previousNodes.flatMap(nodeEntries).map(({ contexts: _c, nodeId: _n, aggregates: _a, ...w }) => w);
}

/** Modes an editor may offer for a node's trigger: ALWAYS individual, CRON/THRESHOLD aggregated; plus universal. */
export function modesForTrigger(trigger: WildcardTrigger | null | undefined): WildcardMode[] {
  return trigger === 'CRON' || trigger === 'THRESHOLD'
    ? ['UNIVERSAL', 'AGGREGATED']
    : ['UNIVERSAL', 'INDIVIDUAL'];
}

export interface WildcardQuery {
  context: WildcardContext;
  /** The node's trigger; absent means ALWAYS (nodes without a trigger section work per document). */
  triggerType?: WildcardTrigger | null;
  previousNodes?: readonly WildcardSourceNode[];
}

/**
 * The wildcards an editor may offer: those of its context (the RAG ones only in the RAG template, which has
 * no document or node data) whose mode suits the trigger. UNIVERSAL ones are always available; under CRON
 * and THRESHOLD the document and node wildcards that aggregate are offered as AGGREGATED (not in file names).
 */
export function availableWildcards(query: WildcardQuery): Wildcard[] {
  const modes = modesForTrigger(query.triggerType);
  const aggregated = modes.includes('AGGREGATED') && query.context !== 'filename';
  const nodes = query.context === 'rag' ? [] : (query.previousNodes ?? []).flatMap(nodeEntries);
  return [...CATALOGUE, ...nodes]
    .filter((w) => w.contexts.includes(query.context))
    .flatMap(({ value, label, category, mode, aggregates }) => {
      if (modes.includes(mode)) return [{ value, label, category, mode }];
      if (aggregated && aggregates) return [{ value, label, category, mode: 'AGGREGATED' as const }];
      return [];
    });
}

const TOKEN = /\$\{[^{}\s]*\}/g;

/** Every `${...}` token in a text, in order of appearance, without duplicates. */
export function extractWildcards(text: string | null | undefined): string[] {
  return [...new Set((text ?? '').match(TOKEN) ?? [])];
}

/** The `${...}` tokens of a text that are not among the available wildcards (for the node API's checks). */
export function findUnknownWildcards(
  text: string | null | undefined,
  available: readonly (Wildcard | string)[],
): string[] {
  const known = new Set(available.map((w) => (typeof w === 'string' ? w : w.value)));
  return extractWildcards(text).filter((t) => !known.has(t));
}
