import type { LogicalOperator, PredicateType } from '../../domain/graph-types';
import { BaseModel } from './Base';

/** A condition on an edge; COMPLEX predicates combine their children with AND / OR. */
export class Predicate extends BaseModel {
  static override tableName = 'predicates';
  id!: number;
  edgeId!: number;
  parentId!: number | null;
  predicateType!: PredicateType;
  logicalOperator!: LogicalOperator | null;
  nodeId!: number | null;
  equal!: boolean;
  clfTypeId!: number | null;
  clfTypeName?: string | null;
  nerTagTypeId!: number | null;
  nerTagTypeName?: string | null;
  nodeName?: string | null;
}
