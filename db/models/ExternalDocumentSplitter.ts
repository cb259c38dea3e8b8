import { BaseModel } from './Base';

export class ExternalDocumentSplitter extends BaseModel {
  static override tableName = 'external_document_splitters';
  id!: number;
  name!: string;
  description!: string | null;
}
