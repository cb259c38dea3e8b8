/**
 * Objection models, kept where their relations earn them: a process with its tags (many-to-many), actors
 * and RAG splitter fetched as one graph, and its tag links related and unrelated. Every other table is
 * reached through db/queries/.
 */
export { ExternalDocumentSplitter } from './ExternalDocumentSplitter';
export { Process } from './Process';
export { ProcessActor } from './ProcessActor';
export { ProcessTag } from './ProcessTag';
