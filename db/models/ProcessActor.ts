import { BaseModel } from './Base';

export class ProcessActor extends BaseModel {
  static override tableName = 'process_actors';
  id!: number;
  processId!: number;
  actor!: string;
  name!: string;
}
