import type { AccessMode, ComponentType } from '../../domain/enums';
import { BaseModel } from './Base';

export class Authority extends BaseModel {
  static override tableName = 'authorities';
  id!: number;
  componentId!: number;
  type!: ComponentType;
  mode!: AccessMode;
}
