/**
 * Who may call each route: ONE table, keyed by `METHOD path` exactly as the router registers the route
 * (prefix included). api/access-gate.ts installs a gate in front of every route from this table before
 * its body is read, and refuses to start when a route has no declaration; the authorization matrix test
 * (tests/integration/authz-matrix.test.ts) calls every route as every kind of principal and expects what
 * is declared here.
 *
 * - `public`: anyone, signed in or not.
 * - `signed-in`: any signed-in user (401 otherwise); what it answers may still be filtered per user.
 * - `role`: a signed-in user with the role (403 otherwise).
 * - `global`: the process permission at global level (an authority on component -1) of at least `mode`.
 * - `process`: at least `mode` on the process the `ref` belongs to (spec 1 section 6); `viaNode` also
 *   counts any grant on one of that process's nodes as READ (an annotator granted a node only still reads
 *   the documents passing through it).
 * - `node`: at least `mode` on the node the `ref` belongs to (the higher of the node's own mode and its
 *   process's).
 *
 * `ref` says where the id is and what it names (`kind`: the gate finds its process and node; the matrix
 * test puts the fixture of that kind there). A list of refs means "the first one present". Refs from the
 * path or the query are checked by the gate before the body is read; refs from the body are checked by
 * the handler after the (size-limited) parse. Handlers keep their own checks (defence in depth), and may
 * refine the declared minimum (e.g. ADMIN for some step actions, for removing another assignee).
 *
 * An id the gate cannot find answers 403 to anyone but an admin, exactly like an id of a process the
 * caller cannot reach: nobody learns whether an id of another process exists.
 *
 * API keys (domain/api-keys.ts) act for their owner on the owner's data, never for the account. A caller
 * signed in by a key passes the gate only where `keyMayCall` holds, and gets 403 everywhere else:
 * - `process`, `node` and `global` declarations: the data of the processes the owner reaches (graphs,
 *   documents, steps, annotations, exports, statistics...), which is what a key is for. They are allowed to
 *   keys by default: such a route is about a process, never about who may sign in.
 * - `public`, `signed-in` and `role` declarations are refused to keys unless marked `withKeys(...)`: the own
 *   account (its update and e-mail, the password and its reset, the logout of every session), key
 *   management, registration and sign-in, users, roles, authorities, audits and the system settings. What
 *   changes who can sign in, or what they reach, needs an interactive session (a JWT from sign-in), so a
 *   leaked key can neither take the account over nor outlive itself. The default is the refusal: a new
 *   account or administration route is closed to keys until someone decides otherwise here.
 * The marked ones are reads that change nothing of an account: catalogues, the own process list, the own
 * account as it is, public status pages, and the metrics a scraper reads.
 */
import type { AccessMode } from '../../domain/enums';

export type RefKind =
  | 'process'
  | 'node'
  | 'document'
  | 'step'
  | 'edge'
  | 'predicate'
  | 'secret'
  | 'classifierType'
  | 'nerTagType'
  /** a document's NER tag (its tag type's node) */
  | 'nerTag'
  /** a document's classifier tag (its node) */
  | 'classifierTag'
  | 'relationType'
  /** an issue of a document (its document's process) */
  | 'issue'
  /** a document's relation graph (its node) */
  | 'relationGraph'
  | 'matchingRule'
  /** a token of a document's transcript (its document's process) */
  | 'utteranceToken'
  | 'emailConnection'
  | 'sftpConnection'
  /** a process's RAG template */
  | 'ragTemplate'
  /** the `endpoint` setting of HTTP upload nodes (not an id; may name nodes of several processes) */
  | 'uploadEndpoint';

export interface Ref {
  from: 'param' | 'query' | 'body';
  /**
   * the parameter, query or body field (`[].id`: the `id` of each element of a body array;
   * `filters[TYPE]`: the value of the body's `filters` entry of that type)
   */
  name: string;
  kind: RefKind;
  /** a list of ids (`?nodeIds=1,2`, `?nodeIds=1&nodeIds=2`, a body array): each must pass */
  many?: boolean;
}

export type Access =
  | { who: 'public' }
  | { who: 'signed-in' }
  | { who: 'role'; role: string }
  | { who: 'global'; mode: AccessMode }
  | { who: 'process'; mode: AccessMode; ref: Ref | Ref[]; viaNode?: boolean }
  | { who: 'node'; mode: AccessMode; ref: Ref | Ref[] };

/** How the route reads its body: JSON (and plain text) parsed up to a limit (default), or multipart. */
export type BodyKind = 'json' | 'multipart';

export type RouteAccess = Access & {
  body?: BodyKind;
  /** May a caller signed in by an API key call it? Unset: `keyMayCall` decides by `who` (the header). */
  byKey?: boolean;
};

/** Whether a caller signed in by an API key may call the route (the header says why). */
export const keyMayCall = (access: RouteAccess): boolean =>
  access.byKey ?? (access.who === 'process' || access.who === 'node' || access.who === 'global');

const PUBLIC = { who: 'public' } as const;
const SIGNED_IN = { who: 'signed-in' } as const;
const ADMIN_ROLE = { who: 'role', role: 'ROLE_ADMIN' } as const;
/** Open to API keys too: a read that changes nothing of an account (see the header). */
const withKeys = (access: RouteAccess): RouteAccess => ({ ...access, byKey: true });

const param = (name: string, kind: RefKind): Ref => ({ from: 'param', name, kind });
const query = (name: string, kind: RefKind, many = false): Ref =>
  many ? { from: 'query', name, kind, many } : { from: 'query', name, kind };
const inBody = (name: string, kind: RefKind, many = false): Ref =>
  many ? { from: 'body', name, kind, many } : { from: 'body', name, kind };

const onProcess = (mode: AccessMode, ref: Ref | Ref[]): RouteAccess => ({ who: 'process', mode, ref });
const onNode = (mode: AccessMode, ref: Ref | Ref[]): RouteAccess => ({ who: 'node', mode, ref });
/** READ on the document's process, or any grant on one of its nodes. */
const documentReader = (ref: Ref): RouteAccess => ({ who: 'process', mode: 'READ', ref, viaNode: true });

export const ROUTE_ACCESS: Readonly<Record<string, RouteAccess>> = {
  // --- management, i18n, account (spec 1 section 2) ---
  'GET /management/info': withKeys(PUBLIC),
  'GET /management/app-name': withKeys(PUBLIC),
  'GET /management/health': withKeys(PUBLIC), // statuses to anyone, details to administrators
  'GET /management/health/liveness': withKeys(PUBLIC), // statuses only (server/health.ts)
  'GET /management/health/readiness': withKeys(PUBLIC),
  // --- watching the system (issue 15 section 2): administrators only ---
  'GET /management/prometheus': withKeys(ADMIN_ROLE),
  'GET /management/jhimetrics': withKeys(ADMIN_ROLE),
  'GET /management/threaddump': ADMIN_ROLE,
  'GET /management/loggers': ADMIN_ROLE,
  'POST /management/loggers/:name': ADMIN_ROLE,
  'GET /management/configprops': ADMIN_ROLE,
  'GET /management/env': ADMIN_ROLE,
  'GET /management/http-logs': ADMIN_ROLE,
  'GET /v3/api-docs': ADMIN_ROLE, // and only with the api-docs profile (404 otherwise)
  'GET /i18n/:file': withKeys(PUBLIC),
  'POST /api/authenticate': PUBLIC,
  'GET /api/account': withKeys(SIGNED_IN),
  'POST /api/account': SIGNED_IN,
  'POST /api/account/change-password': SIGNED_IN,
  'POST /api/logout': SIGNED_IN, // ends every session of the caller
  // own keys only; a caller signed in by a key is refused (domain/api-keys.ts)
  'GET /api/api-keys': SIGNED_IN,
  'POST /api/api-keys': SIGNED_IN,
  'DELETE /api/api-keys/:id': SIGNED_IN,
  'POST /api/register': PUBLIC,
  'GET /api/verify': PUBLIC,
  'POST /api/account/reset-password/init': PUBLIC,
  'POST /api/account/reset-password/finish': PUBLIC,

  // --- administration: users, roles, authorities, audits (issue 15; docs/api-users.md) ---
  'GET /api/users': ADMIN_ROLE,
  'GET /api/_search/users': ADMIN_ROLE,
  'GET /api/users/:id': ADMIN_ROLE,
  'POST /api/users': ADMIN_ROLE,
  'PUT /api/users': ADMIN_ROLE,
  'DELETE /api/users/:id': ADMIN_ROLE,
  'GET /api/authorities': ADMIN_ROLE,
  'POST /api/authorities': ADMIN_ROLE,
  'DELETE /api/authorities/:id': ADMIN_ROLE,
  'GET /api/roles': ADMIN_ROLE,
  'POST /api/roles': ADMIN_ROLE,
  'PUT /api/roles': ADMIN_ROLE,
  'DELETE /api/roles/:id': ADMIN_ROLE,
  'GET /management/audits': ADMIN_ROLE,

  // --- processes, tags, actors ---
  'GET /api/processes': withKeys(SIGNED_IN), // filtered to the readable processes
  'GET /api/processes/:id': onProcess('READ', param('id', 'process')),
  'POST /api/processes': { who: 'global', mode: 'WRITE' },
  'DELETE /api/processes/:id': onProcess('ADMIN', param('id', 'process')),
  'PUT /api/processes/:id/process-tags': onProcess('ADMIN', param('id', 'process')),
  'PUT /api/process/:id/process-actors': onProcess('ADMIN', param('id', 'process')),
  'POST /api/process/:id/process-actors': onProcess('ADMIN', param('id', 'process')),
  'GET /api/external-document-splitter': withKeys(SIGNED_IN),
  'GET /api/process-tags': withKeys(SIGNED_IN),
  // the handler asks the admin role for a predefined tag
  'POST /api/process-tags': { who: 'global', mode: 'WRITE' },
  'PUT /api/process-tags': { who: 'global', mode: 'WRITE' },
  'DELETE /api/process-tags/:id': { who: 'global', mode: 'WRITE' },

  // --- nodes, edges, predicates ---
  'GET /api/node-properties': withKeys(SIGNED_IN),
  'GET /api/nodes/multiprocessed-nodes-whitelist': withKeys(SIGNED_IN),
  'GET /api/nodes/nodes-with-conditional-acceptance-whitelist': withKeys(SIGNED_IN),
  'GET /api/nodes/custom-external-nodes-whitelist': withKeys(SIGNED_IN),
  'GET /api/nodes/llm-external-nodes-whitelist': withKeys(SIGNED_IN),
  'GET /api/nodes/trainable-nodes-whitelist': withKeys(SIGNED_IN),
  'GET /api/nodes': onProcess('READ', query('processId', 'process')),
  'GET /api/span-nodes': onProcess('READ', query('processId', 'process')),
  'POST /api/nodes/fetch-by-ids': onNode('READ', inBody('nodeIds', 'node', true)),
  'PUT /api/nodes/coordinates': onProcess('ADMIN', inBody('[].id', 'node', true)),
  'GET /api/nodes/:id': onNode('READ', param('id', 'node')),
  'GET /api/nodes/:id/previousNodes': onNode('READ', param('id', 'node')),
  'POST /api/nodes': onProcess('ADMIN', inBody('processId', 'process')),
  'PUT /api/nodes': onProcess('ADMIN', inBody('id', 'node')),
  'PUT /api/nodes/:id/coordinates': onProcess('ADMIN', param('id', 'node')),
  'DELETE /api/nodes/:id': onProcess('ADMIN', param('id', 'node')),
  // step-result export (issue 16: statistics and export need ADMIN on the process)
  'GET /api/nodes/:id/export-step-result': onProcess('ADMIN', param('id', 'node')),
  'GET /api/edges/whitelist': withKeys(SIGNED_IN),
  'GET /api/edges': onProcess('READ', query('processId', 'process')),
  'POST /api/edges': onProcess('ADMIN', inBody('fromId', 'node')),
  'DELETE /api/edges/:id': onProcess('ADMIN', param('id', 'edge')),
  'GET /api/predicates': onProcess('READ', [query('edgeId', 'edge'), query('processId', 'process')]),
  'POST /api/predicates': onProcess('ADMIN', inBody('edgeId', 'edge')),
  'PUT /api/predicates': onProcess('ADMIN', inBody('id', 'predicate')),
  'DELETE /api/predicates/:id': onProcess('ADMIN', param('id', 'predicate')),

  // --- labels, matching rules, relation types ---
  'GET /api/process/:id/classifier-types': onProcess('READ', param('id', 'process')),
  'GET /api/node/:nodeId/classifier-types': onNode('READ', param('nodeId', 'node')),
  'GET /api/classifier-types/:id': onNode('READ', param('id', 'classifierType')),
  'POST /api/node/:nodeId/classifier-types': onProcess('ADMIN', param('nodeId', 'node')),
  'PUT /api/classifier-types': onProcess('ADMIN', inBody('id', 'classifierType')),
  'DELETE /api/classifier-types/:id': onProcess('ADMIN', param('id', 'classifierType')),
  'GET /api/node/:nodeId/ner-tag-type': onNode('READ', param('nodeId', 'node')),
  'GET /api/root-ner-tag-types': onNode('READ', query('nodeIds', 'node', true)),
  // spec 2 section 6: options of the labelling menu are added and edited with WRITE on the node (what a
  // caller below ADMIN may change is limited by the handler)
  'POST /api/node/:nodeId/ner-tag-type': onNode('WRITE', param('nodeId', 'node')),
  'PUT /api/ner-tag-type': onNode('WRITE', inBody('id', 'nerTagType')),
  'DELETE /api/ner-tag-type/:id': onProcess('ADMIN', param('id', 'nerTagType')),
  'GET /api/node/:nodeId/ner-tag-type/export': onNode('READ', param('nodeId', 'node')),
  'POST /api/node/:nodeId/ner-tag-type/import': onProcess('ADMIN', param('nodeId', 'node')),
  'GET /api/matching-rules': onNode('READ', query('nodeId', 'node')),
  'PUT /api/matching-rules': onProcess('ADMIN', inBody('id', 'matchingRule')),
  'POST /api/matching-rules/batch': onProcess('ADMIN', inBody('nerTagTypeId', 'nerTagType')),
  'GET /api/ner-tag-relation-types': onNode('READ', query('nodeIds', 'node', true)),
  'POST /api/ner-tag-relation-types': onProcess('ADMIN', inBody('nodeId', 'node')),
  'PUT /api/ner-tag-relation-types': onProcess('ADMIN', inBody('id', 'relationType')),
  'DELETE /api/ner-tag-relation-types/:id': onProcess('ADMIN', param('id', 'relationType')),

  // --- LLM models (global), secrets, connections ---
  'GET /api/llm-models': withKeys(SIGNED_IN),
  'GET /api/llm-models/:id': withKeys(SIGNED_IN),
  'POST /api/llm-models': ADMIN_ROLE,
  'PUT /api/llm-models': ADMIN_ROLE,
  'DELETE /api/llm-models/:id': ADMIN_ROLE,
  // the list has names and active flags only (values are never returned): readers pick one on the RAG page
  'GET /api/secrets': onProcess('READ', query('processId', 'process')),
  'POST /api/secrets': onProcess('ADMIN', inBody('processId', 'process')),
  'PUT /api/secrets/:id': onProcess('ADMIN', param('id', 'secret')),
  'DELETE /api/secrets/:id': onProcess('ADMIN', param('id', 'secret')),
  'GET /api/email-upload-connection-data': onNode('READ', query('nodeId', 'node')),
  'GET /api/email-upload-connection-data/:id': onNode('READ', param('id', 'emailConnection')),
  'POST /api/email-upload-connection-data': onProcess('ADMIN', inBody('nodeId', 'node')),
  'PUT /api/email-upload-connection-data': onProcess('ADMIN', inBody('id', 'emailConnection')),
  'DELETE /api/email-upload-connection-data/:id': onProcess('ADMIN', param('id', 'emailConnection')),
  'GET /api/google-drive-connections/config': withKeys(SIGNED_IN),
  'GET /api/node/:id/google-drive-connections': onNode('READ', param('id', 'node')),
  'PUT /api/node/google-drive-connections': onProcess('ADMIN', inBody('nodeId', 'node')),
  'GET /api/inter-process-receiver-nodes': withKeys(SIGNED_IN), // filtered to the readable processes
  'GET /api/sftp-connection-data': onNode('READ', query('nodeId', 'node')),
  'GET /api/sftp-connection-data/:id': onNode('READ', param('id', 'sftpConnection')),
  'POST /api/sftp-connection-data': onProcess('ADMIN', inBody('nodeId', 'node')),
  'PUT /api/sftp-connection-data': onProcess('ADMIN', inBody('id', 'sftpConnection')),
  'DELETE /api/sftp-connection-data/:id': onProcess('ADMIN', param('id', 'sftpConnection')),
  'POST /api/sftp-connection-data/test': onProcess('ADMIN', [
    inBody('id', 'sftpConnection'),
    inBody('nodeId', 'node'),
  ]),

  // --- intake (multipart: the handler authorizes a form-field node before the first file byte) ---
  'POST /api/file-upload': {
    ...onNode('WRITE', [query('nodeId', 'node'), inBody('nodeId', 'node')]),
    body: 'multipart',
  },
  'POST /api/upload/:endpoint': {
    ...onNode('WRITE', param('endpoint', 'uploadEndpoint')),
    body: 'multipart',
  },

  // --- documents ---
  'GET /api/documents/:id': documentReader(param('id', 'document')),
  'PUT /api/documents': onProcess('WRITE', inBody('id', 'document')),
  // READ on the process and WRITE on its obligatory Upload node
  'POST /api/documents': onProcess('WRITE', inBody('processId', 'process')),
  'POST /api/documents/_search/document': onProcess('READ', inBody('processId', 'process')),
  'DELETE /api/documents/:id': onProcess('ADMIN', param('id', 'document')),
  // the document's file replaced, its parser rerun (issue 29 section 2)
  'POST /api/documents/:id/file': { ...onProcess('ADMIN', param('id', 'document')), body: 'multipart' },
  'DELETE /api/documents': onProcess('ADMIN', inBody('processId', 'process')),
  'DELETE /api/processes/:id/documents': onProcess('ADMIN', param('id', 'process')),
  'PUT /api/document-content': onProcess('WRITE', inBody('docId', 'document')),
  'POST /api/v2/document/:id/blocked-by': onProcess('ADMIN', param('id', 'document')),
  'POST /api/v2/document/:id/blocked-by/': onProcess('ADMIN', param('id', 'document')),
  'DELETE /api/v2/document/:id/blocked-by': onProcess('ADMIN', param('id', 'document')),
  'DELETE /api/v2/document/:id/blocked-by/': onProcess('ADMIN', param('id', 'document')),
  'POST /api/v2/document/:id/assignees/:userId': onProcess('WRITE', param('id', 'document')),
  // removing yourself: WRITE; anybody else: ADMIN (the handler)
  'DELETE /api/v2/document/:id/assignee/:userId': onProcess('WRITE', param('id', 'document')),
  'PUT /api/v2/document/:id/assignees': onProcess('ADMIN', param('id', 'document')),
  'GET /api/processes/:id/assignable-users': onProcess('WRITE', param('id', 'process')),
  'GET /api/documents/:id/images/length': documentReader(param('id', 'document')),
  'GET /api/documents/:id/images/:index': documentReader(param('id', 'document')),
  'GET /api/asr-documents/:id/audio': documentReader(param('id', 'document')),
  'GET /api/asr-documents/:id/peaks': documentReader(param('id', 'document')),
  'GET /api/asr-documents/:id/utterances': documentReader(param('id', 'document')),
  'GET /api/documents/:documentId/top/hints': documentReader(param('documentId', 'document')),
  'GET /api/v2/document/:id/state': documentReader(param('id', 'document')),
  'GET /api/v2/document/:id/history': documentReader(param('id', 'document')),
  'GET /api/v2/document/:id/timeline': documentReader(param('id', 'document')),
  // the process is the body's PROCESS filter; below ADMIN the service narrows what may be listed
  'POST /api/v2/document-info': documentReader(inBody('filters[PROCESS]', 'process')),

  // --- tags of a document (the handlers also need an editable step of the label's node: 409 / 423) ---
  'GET /api/ner-tags': documentReader(query('documentId', 'document')),
  'POST /api/ner-tags': onNode('WRITE', inBody('nerTagTypeId', 'nerTagType')),
  'POST /api/ner-tags/batch': onNode('WRITE', inBody('nerTagTypeId', 'nerTagType')),
  'PUT /api/ner-tags': onNode('WRITE', inBody('id', 'nerTag')),
  'DELETE /api/ner-tags/:id': onNode('WRITE', param('id', 'nerTag')),
  'GET /api/classifier-tags': documentReader(query('documentId', 'document')),
  'POST /api/classifier-tags': onNode('WRITE', inBody('classifierTypeId', 'classifierType')),
  'DELETE /api/classifier-tags/:id': onNode('WRITE', param('id', 'classifierTag')),

  // --- the speech workspace and the asr-document screens (docs/api-speech.md): transcript writes need WRITE
  // on the active step's node (`?nodeId`); the handlers then need the document in the node's process and an
  // editable step of the node in it (409 / 423), and a result that is still a transcript (400) ---
  'PUT /api/utterances': onNode('WRITE', query('nodeId', 'node')),
  'POST /api/utterances/batch': onNode('WRITE', query('nodeId', 'node')),
  'POST /api/utterance-tokens': onNode('WRITE', query('nodeId', 'node')),
  'PUT /api/utterance-tokens': onNode('WRITE', query('nodeId', 'node')),
  'DELETE /api/utterance-tokens/:id': onNode('WRITE', [
    query('nodeId', 'node'),
    param('id', 'utteranceToken'),
  ]),
  'DELETE /api/utterance-tokens': onNode('WRITE', query('nodeId', 'node')),
  'GET /api/utterance-tokens/:id/ner-tags': documentReader(param('id', 'utteranceToken')),
  'GET /api/asr-documents': documentReader(query('processId', 'process')),
  // without processId: the asr documents of every process the caller reads
  'GET /api/_search/asr-documents': documentReader(query('processId', 'process')),
  'GET /api/asr-documents/:id': documentReader(param('id', 'document')),
  // READ on the process and WRITE on its obligatory Upload node (like POST /api/documents)
  'POST /api/asr-documents': onProcess('WRITE', inBody('processId', 'process')),
  'PUT /api/asr-documents': onProcess('WRITE', inBody('id', 'document')),
  'DELETE /api/asr-documents/:id': onProcess('ADMIN', param('id', 'document')),

  // --- issues of a document (spec 2 sections 3 to 7; docs/api-issues.md) ---
  'GET /api/document/:id/issues': documentReader(param('id', 'document')),
  'POST /api/issues': onProcess('WRITE', inBody('docId', 'document')),
  'PUT /api/issues': onProcess('WRITE', inBody('id', 'issue')),
  'PUT /api/issues/:id/status': onProcess('WRITE', param('id', 'issue')),
  'POST /api/issues/:id/replies': onProcess('WRITE', param('id', 'issue')),
  // editing or deleting a comment: process admins only (spec 2 section 6)
  'PUT /api/issues/:id/replies/:replyId': onProcess('ADMIN', param('id', 'issue')),
  'DELETE /api/issues/:id/replies/:replyId': onProcess('ADMIN', param('id', 'issue')),
  // --- relation graphs of a document's tags (the handlers check WRITE on the tags' node once the body is
  // read, and an editable step of it: 409 / 423; a graph that breaks a rule: 422) ---
  'GET /api/ner-tag-relation-graphs': documentReader(query('documentId', 'document')),
  'GET /api/ner-tag-relation-graphs/candidates': documentReader(query('documentId', 'document')),
  'PUT /api/ner-tag-relation-graphs/validation': documentReader(inBody('documentId', 'document')),
  // WRITE on the document's process or one of its nodes, then on the tags' node
  'POST /api/ner-tag-relation-graphs': onNode('WRITE', inBody('documentId', 'document')),
  'PUT /api/ner-tag-relation-graphs': onNode('WRITE', inBody('id', 'relationGraph')),
  'DELETE /api/ner-tag-relation-graphs/:id': onNode('WRITE', param('id', 'relationGraph')),

  // --- steps (domain/steps.ts refines the mode per action: ADMIN to accept with acceptance, rerun...) ---
  'POST /api/step/assign': onNode('WRITE', query('nodeId', 'node')),
  'PUT /api/steps': onNode('WRITE', inBody('id', 'step')),
  'PUT /api/steps/:id/:action': onNode('WRITE', param('id', 'step')),
  'GET /api/steps/:id': onNode('READ', param('id', 'step')),
  'POST /api/nodes/:nodeId/steps/rerun': onNode('ADMIN', param('nodeId', 'node')),

  // --- action results, LLM, run now, training ---
  'GET /api/action-execution-results': onNode('READ', query('nodeId', 'node')),
  'GET /api/action-execution-results/send-to-sftp': onNode('READ', query('stepId', 'step')),
  'GET /api/action-execution-results/send-to-google-drive': onNode('READ', query('stepId', 'step')),
  'POST /api/llm-prompt-step/:stepId/rerun': onNode('WRITE', param('stepId', 'step')),
  'GET /api/llm-chat-responses': documentReader(query('documentId', 'document')),

  // --- RAG (issue 16 section 3; docs/api-rag.md): the query page is ADMIN, WRITE and READ (spec 1 route
  // table); templates are read with the page and changed by process admins ---
  'GET /api/rag-templates/defaults': withKeys(SIGNED_IN),
  'GET /api/rag-templates': onProcess('READ', query('processId', 'process')),
  'PUT /api/rag-templates': onProcess('ADMIN', inBody('processId', 'process')),
  'DELETE /api/rag-templates/:id': onProcess('ADMIN', param('id', 'ragTemplate')),
  'POST /api/rag': onProcess('READ', inBody('processId', 'process')),
  'PUT /api/processes/:id/rag': onProcess('ADMIN', param('id', 'process')),
  'POST /api/action-nodes/:id/execute-action': onNode('WRITE', param('id', 'node')),
  'PUT /api/email-upload-node/:id/fetch-mail': onNode('WRITE', param('id', 'node')),
  'PUT /api/sftp-upload-node/:id/fetch-sftp-content': onNode('WRITE', param('id', 'node')),
  'PUT /api/google-drive-upload-node/:id/fetch-content': onNode('WRITE', param('id', 'node')),
  'PUT /api/trainable-nodes/:id/train': onNode('WRITE', param('id', 'node')),

  // --- statistics (issue 16 section 1; docs/api-statistics.md): the page needs ADMIN on the process (spec 3
  // section 6); the workspace reports a reader's work too, so READ on the step's node ---
  'POST /api/statistics': onProcess('ADMIN', inBody('processId', 'process')),
  'POST /api/work-time': onNode('READ', inBody('stepId', 'step')),
};

/** The declarations' refs as a list. */
export const refsOf = (access: Access): Ref[] =>
  access.who === 'process' || access.who === 'node'
    ? Array.isArray(access.ref)
      ? access.ref
      : [access.ref]
    : [];
