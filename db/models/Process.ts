import { Model } from 'objection';
import { BaseModel } from './Base';
import { ExternalDocumentSplitter } from './ExternalDocumentSplitter';
import { ProcessActor } from './ProcessActor';
import { ProcessTag } from './ProcessTag';

export class Process extends BaseModel {
  static override tableName = 'processes';
  id!: number;
  name!: string;
  isRagEnabled!: boolean;
  ragTextSplitterId!: number | null;
  createdDate!: Date;
  processTags?: ProcessTag[];
  actors?: ProcessActor[];
  ragTextSplitter?: ExternalDocumentSplitter | null;

  static override relationMappings = () => ({
    processTags: {
      relation: Model.ManyToManyRelation,
      modelClass: ProcessTag,
      join: {
        from: 'processes.id',
        through: { from: 'process_process_tags.process_id', to: 'process_process_tags.process_tag_id' },
        to: 'process_tags.id',
      },
    },
    actors: {
      relation: Model.HasManyRelation,
      modelClass: ProcessActor,
      join: { from: 'processes.id', to: 'process_actors.process_id' },
    },
    ragTextSplitter: {
      relation: Model.BelongsToOneRelation,
      modelClass: ExternalDocumentSplitter,
      join: { from: 'processes.rag_text_splitter_id', to: 'external_document_splitters.id' },
    },
  });
}
