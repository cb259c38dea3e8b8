/**
 * Relations between NER tags and their graphs (spec 2 sections 3 to 5, issue 12 section 1): which relation
 * types may link two tags (the candidates of the relation menu), and whether a list of relations makes a
 * valid graph. Pure: the API enforces it on every write (api/routes/relation-graphs.ts), the workspace asks
 * the API for the candidates and shows the validation it answers.
 *
 * Rules (spec 2 section 4 "Relations"), for a relation from tag A (the first chosen) to tag B:
 * - both tags are of the same node (their tag types' node), and that node handles relations;
 * - the relation type is one of that node's;
 * - merge: A and B have the same tag type (and it matches the type's `from`, see below);
 * - strict: A's type is exactly the relation type's `from` and B's exactly its `to`;
 * - otherwise ancestry: A's type is `from` or a descendant of it, B's type is `to` or a descendant;
 *   a null `from` / `to` means any type (also for strict and merge);
 * - candidates are sorted by priority, 4 (highest) first, then by name and id;
 * - with the node's relation priority mode on, only the candidates of the top priority are kept.
 *
 * Decisions where the spec is silent:
 * - Relations are directed (from the first chosen tag to the second); a tag is not related to itself.
 * - "Priority mode" is a setting of SPAN nodes, `relationPriorityMode` (false by default), in the node's
 *   Additional settings beside "Handles relations" (the nodes table keeps it in its settings).
 * - A graph is one connected component of its relations taken as undirected edges (else
 *   error.graph.noCohesive); it holds at least one relation, no relation twice, and all its tags belong to
 *   one document and one node. A relation type that is not a candidate for its two tags, with priority mode
 *   applied, is refused like the relation menu would not offer it.
 * - `graphs` of a validation result: the connected components of the relations sent, each a list of their
 *   indexes in the list sent (one entry when the graph is cohesive).
 */

/** A tag as the rules need it. */
export interface RelationTag {
  id: number;
  nerTagTypeId: number;
  nodeId: number;
}

/** A relation type as the rules need it (domain/label-types RelationTypeDTO fits). */
export interface RelationRuleType {
  id: number;
  nodeId: number;
  name: string;
  priority: number;
  fromId: number | null;
  toId: number | null;
  strict: boolean;
  merge: boolean;
}

/** What the rules know of a node. */
export interface RelationNode {
  id: number;
  handlesRelations: boolean;
  relationPriorityMode: boolean;
}

/** A relation as it is sent (a candidate) or stored. */
export interface RelationInput {
  fromId: number;
  toId: number;
  relationTypeId: number;
}

export interface NerTagRelationDTO extends RelationInput {
  id: number;
  relationGraphId: number;
  /** the relation type's name and colour, as read (what the workspace draws; ignored on input) */
  relationType?: { id: number; name: string; color: string };
}

export interface RelationGraphDTO {
  id: number;
  documentId: number;
  stepId: number | null;
  nodeId: number;
  relations: NerTagRelationDTO[];
}

export interface GraphValidation {
  valid: boolean;
  /** null when valid, else a message key (RELATION_MESSAGES). */
  message: RelationMessageKey | null;
  /** the connected components of the relations, each the indexes of its relations in the list sent */
  graphs: number[][];
}

/** Message keys of the refusals and their English sentences (the web app translates the keys). */
export const RELATION_MESSAGES = {
  'error.graph.noCohesive': 'The relations do not form one connected graph.',
  'error.graph.empty': 'A graph needs at least one relation.',
  'error.relation.tagNotFound': 'A tag of the relation is not a tag of this document.',
  'error.relation.self': 'A tag cannot be related to itself.',
  'error.relation.differentNodes': 'Both tags of a relation must belong to the same node.',
  'error.relation.nodeNoRelations': 'The node of the tags does not handle relations.',
  'error.relation.typeNotAllowed': 'This relation type cannot link these two tags.',
  'error.relation.duplicate': 'The same relation appears twice.',
  'error.graph.mixedNodes': 'All relations of a graph must belong to one node.',
  'error.tag.hasRelations': 'The tag has relations: remove them from their graphs first.',
} as const;
export type RelationMessageKey = keyof typeof RELATION_MESSAGES;

/** Priorities, highest first (spec: 4 highest, 3 high, 2 medium, 1 low, 0 lowest). */
export const RELATION_PRIORITIES = [4, 3, 2, 1, 0] as const;

/** Parent of each tag type id (null for a root): the tag type tree of the nodes concerned. */
export type TagTypeParents = ReadonlyMap<number, number | null>;

/** True when `typeId` is `ancestorId` or lies below it in the tree. */
export function isTypeOrDescendant(parents: TagTypeParents, typeId: number, ancestorId: number): boolean {
  const seen = new Set<number>();
  let current: number | null | undefined = typeId;
  while (current !== null && current !== undefined && !seen.has(current)) {
    if (current === ancestorId) return true;
    seen.add(current);
    current = parents.get(current);
  }
  return false;
}

/** Whether the relation type may link `from` to `to` by its kind (merge, strict, ancestry). */
export function typeMatches(
  type: RelationRuleType,
  from: RelationTag,
  to: RelationTag,
  parents: TagTypeParents,
): boolean {
  if (type.nodeId !== from.nodeId || type.nodeId !== to.nodeId) return false;
  const end = (tagTypeId: number, wanted: number | null) =>
    wanted === null || (type.strict ? tagTypeId === wanted : isTypeOrDescendant(parents, tagTypeId, wanted));
  if (type.merge)
    return from.nerTagTypeId === to.nerTagTypeId && end(from.nerTagTypeId, type.fromId ?? type.toId);
  return end(from.nerTagTypeId, type.fromId) && end(to.nerTagTypeId, type.toId);
}

/** The refusal of a pair of tags before any relation type is considered, or null. */
export function pairRefusal(
  from: RelationTag | undefined,
  to: RelationTag | undefined,
  node: RelationNode | undefined,
): RelationMessageKey | null {
  if (!from || !to) return 'error.relation.tagNotFound';
  if (from.id === to.id) return 'error.relation.self';
  if (from.nodeId !== to.nodeId) return 'error.relation.differentNodes';
  if (!node || node.id !== from.nodeId || !node.handlesRelations) return 'error.relation.nodeNoRelations';
  return null;
}

const byPriority = (a: RelationRuleType, b: RelationRuleType) =>
  b.priority - a.priority || a.name.localeCompare(b.name) || a.id - b.id;

/**
 * The relation types that may link `from` to `to`, best first; only the top priority with the node's
 * priority mode on; none when the pair itself is refused (pairRefusal).
 */
export function candidateRelationTypes<T extends RelationRuleType>(
  from: RelationTag | undefined,
  to: RelationTag | undefined,
  node: RelationNode | undefined,
  types: readonly T[],
  parents: TagTypeParents,
): T[] {
  if (pairRefusal(from, to, node)) return [];
  const matching = types.filter((t) => typeMatches(t, from!, to!, parents)).sort(byPriority);
  if (!node!.relationPriorityMode || !matching.length) return matching;
  const top = matching[0].priority;
  return matching.filter((t) => t.priority === top);
}

/** The connected components of the relations (undirected), each the sorted indexes of its relations. */
export function relationComponents(relations: readonly RelationInput[]): number[][] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    let cur = x;
    while (cur !== root) {
      const next = parent.get(cur)!;
      parent.set(cur, root);
      cur = next;
    }
    return root;
  };
  for (const r of relations) for (const tag of [r.fromId, r.toId]) if (!parent.has(tag)) parent.set(tag, tag);
  for (const r of relations) {
    const a = find(r.fromId);
    const b = find(r.toId);
    if (a !== b) parent.set(a, b);
  }
  const groups = new Map<number, number[]>();
  relations.forEach((r, i) => {
    const root = find(r.fromId);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });
  return [...groups.values()];
}

/** True when the relations form one connected graph. */
export const isCohesive = (relations: readonly RelationInput[]): boolean =>
  relations.length > 0 && relationComponents(relations).length === 1;

export interface GraphContext {
  tags: ReadonlyMap<number, RelationTag>;
  nodes: ReadonlyMap<number, RelationNode>;
  /** relation types of the nodes concerned, by id */
  types: ReadonlyMap<number, RelationRuleType>;
  parents: TagTypeParents;
}

/**
 * Validates a graph's relations against every rule: tags of the document, same node handling relations,
 * a candidate relation type (kind, ancestry, priority mode), no duplicate, one node, one connected component.
 */
export function validateGraph(relations: readonly RelationInput[], ctx: GraphContext): GraphValidation {
  const graphs = relationComponents(relations);
  const fail = (message: RelationMessageKey): GraphValidation => ({ valid: false, message, graphs });
  if (!relations.length) return fail('error.graph.empty');
  const seen = new Set<string>();
  let graphNode: number | null = null;
  for (const r of relations) {
    const from = ctx.tags.get(r.fromId);
    const to = ctx.tags.get(r.toId);
    const node = from ? ctx.nodes.get(from.nodeId) : undefined;
    const refusal = pairRefusal(from, to, node);
    if (refusal) return fail(refusal);
    if (graphNode !== null && graphNode !== from!.nodeId) return fail('error.graph.mixedNodes');
    graphNode = from!.nodeId;
    const nodeTypes = [...ctx.types.values()].filter((t) => t.nodeId === from!.nodeId);
    const candidates = candidateRelationTypes(from, to, node, nodeTypes, ctx.parents);
    if (!candidates.some((t) => t.id === r.relationTypeId)) return fail('error.relation.typeNotAllowed');
    const key = `${r.fromId}:${r.toId}:${r.relationTypeId}`;
    if (seen.has(key)) return fail('error.relation.duplicate');
    seen.add(key);
  }
  if (graphs.length !== 1) return fail('error.graph.noCohesive');
  return { valid: true, message: null, graphs };
}

/** Tag ids that take part in at least one relation of the graphs. */
export function relatedTagIds(graphs: readonly Pick<RelationGraphDTO, 'relations'>[]): Set<number> {
  const ids = new Set<number>();
  for (const g of graphs)
    for (const r of g.relations) {
      ids.add(r.fromId);
      ids.add(r.toId);
    }
  return ids;
}
