/** Payloads of RAG (issue 16 section 3; spec 3 sections 3 and 5) as the API, the web app and the tests see them. */

/** `GET/PUT api/rag-templates`: the process's template (spec: id, processId, template, templateEditorState, active). */
export interface RagTemplateDTO {
  id: number | null;
  processId: number;
  template: string;
  templateEditorState: string | null;
  active: boolean;
}

/** `POST api/rag` body (spec: query, similarityThreshold, topK, temperature, processId, llmModel.id, secret.id). */
export interface RagQuery {
  query: string;
  processId: number;
  /** 1..10, default 4 (empty becomes 1 in the form) */
  topK: number;
  /** 0..1 step 0.05, default 0 */
  similarityThreshold: number;
  /** 0..2, default 1 */
  temperature: number;
  llmModel: { id: number };
  secret?: { id: number } | null;
}

export const RAG_TOP_K = { min: 1, max: 10, default: 4 } as const;
export const RAG_SIMILARITY = { min: 0, max: 1, step: 0.05, default: 0 } as const;

/** A matched chunk: its text and its place in the document's text (UTF-16 offsets, end exclusive). */
export interface RagChunk {
  id: number;
  text: string;
  startOffset: number;
  endOffset: number;
  /** fused score, 0..1 (1 the best of the answer) */
  score: number;
}

export interface RagMatchedDocument {
  docId: number;
  filename: string;
  chunks: RagChunk[];
}

/** `POST api/rag` answer (spec: llmResponse, matchedDocuments (docId, filename, chunks)). */
export interface RagResponse {
  llmResponse: string;
  matchedDocuments: RagMatchedDocument[];
}

/** `GET api/rag-templates/defaults`: the template a process without its own uses (and DELETE resets to). */
export interface RagTemplateDefaults {
  template: string;
  templateEditorState: string | null;
}
