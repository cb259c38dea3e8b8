import { Model } from 'objection';
import { Authority } from './Authority';
import { BaseModel } from './Base';
import { Role } from './Role';

export class User extends BaseModel {
  static override tableName = 'users';
  id!: number;
  login!: string;
  email!: string;
  passwordHash!: string;
  firstName!: string | null;
  lastName!: string | null;
  activated!: boolean;
  langKey!: string;
  activationKey!: string | null;
  resetKey!: string | null;
  resetDate!: Date | null;
  /** Carried in every JWT (claim `ver`); bumping it revokes the user's tokens (api/services/accounts.ts). */
  tokenVersion!: number;
  createdBy!: string | null;
  createdDate!: Date | null;
  lastModifiedBy!: string | null;
  lastModifiedDate!: Date | null;
  roles?: Role[];
  authorities?: Authority[];

  static override relationMappings = () => ({
    roles: {
      relation: Model.ManyToManyRelation,
      modelClass: Role,
      join: {
        from: 'users.id',
        through: { from: 'user_roles.user_id', to: 'user_roles.role_id' },
        to: 'roles.id',
      },
    },
    authorities: {
      relation: Model.ManyToManyRelation,
      modelClass: Authority,
      join: {
        from: 'users.id',
        through: { from: 'user_authorities.user_id', to: 'user_authorities.authority_id' },
        to: 'authorities.id',
      },
    },
  });
}
