import { BaseModel } from './Base';

export class ProcessTag extends BaseModel {
  static override tableName = 'process_tags';
  id!: number;
  name!: string;
  color!: string;
  predefined!: boolean;
}
