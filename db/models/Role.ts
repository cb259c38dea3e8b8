import { Model } from 'objection';
import { Authority } from './Authority';
import { BaseModel } from './Base';

export class Role extends BaseModel {
  static override tableName = 'roles';
  id!: number;
  name!: string;
  authorities?: Authority[];

  static override relationMappings = () => ({
    authorities: {
      relation: Model.ManyToManyRelation,
      modelClass: Authority,
      join: {
        from: 'roles.id',
        through: { from: 'role_authorities.role_id', to: 'role_authorities.authority_id' },
        to: 'authorities.id',
      },
    },
  });
}
