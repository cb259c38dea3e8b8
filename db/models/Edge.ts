import { BaseModel } from './Base';

/** A directed edge between two nodes of one process. */
export class Edge extends BaseModel {
  static override tableName = 'edges';
  id!: number;
  processId!: number;
  fromId!: number;
  toId!: number;
}
