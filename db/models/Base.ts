/** Base model: snake_case columns in the database, camelCase properties in code. */
import { Model, snakeCaseMappers } from 'objection';

export class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}
