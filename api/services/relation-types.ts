/**
 * NER relation types of SPAN nodes (docs/api-graph.md): plain reads and writes of their table, which live in
 * db/queries/relation-types.ts; the routes reach them here. Rules: domain/labels.ts.
 */
export * from '../../db/queries/relation-types';
