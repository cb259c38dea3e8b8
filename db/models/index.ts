export { Authority } from './Authority';
export { ExternalDocumentSplitter } from './ExternalDocumentSplitter';
export { Process } from './Process';
export { ProcessActor } from './ProcessActor';
export { ProcessTag } from './ProcessTag';
export { Role } from './Role';
export { User } from './User';
