/**
 * The vocabulary of a route's `access` declaration (api/route.ts `route({ method, path, access, ... })`):
 * who may call it. The declaration sits on the route itself; api/route.ts mounts every route behind the
 * gate built from it (api/access-gate.ts: 401/403 before the body is read) and refuses a route without a
 * valid one; the authorization matrix test (tests/integration/authz-matrix.test.ts) calls every declared
 * route as every kind of principal and expects what is declared.
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
 *   account or administration route is closed to keys until its declaration says `withKeys`.
 * The marked ones are reads that change nothing of an account: catalogues, the own process list, the own
 * account as it is, public status pages, and the metrics a scraper reads.
 */
import { AccessModes, type AccessMode } from '../../domain/enums';

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

/** Every kind (a gate resolver and a matrix fixture exist for each). */
const REF_KINDS: Record<RefKind, true> = {
  process: true,
  node: true,
  document: true,
  step: true,
  edge: true,
  predicate: true,
  secret: true,
  classifierType: true,
  nerTagType: true,
  nerTag: true,
  classifierTag: true,
  relationType: true,
  issue: true,
  relationGraph: true,
  matchingRule: true,
  utteranceToken: true,
  emailConnection: true,
  sftpConnection: true,
  ragTemplate: true,
  uploadEndpoint: true,
};

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

export type RouteAccess = Access & {
  /** May a caller signed in by an API key call it? Unset: `keyMayCall` decides by `who` (the header). */
  byKey?: boolean;
};

/** Whether a caller signed in by an API key may call the route (the header says why). */
export const keyMayCall = (access: RouteAccess): boolean =>
  access.byKey ?? (access.who === 'process' || access.who === 'node' || access.who === 'global');

export const PUBLIC = { who: 'public' } as const;
export const SIGNED_IN = { who: 'signed-in' } as const;
export const ADMIN_ROLE = { who: 'role', role: 'ROLE_ADMIN' } as const;
/** The process permission at global level (an authority on component -1) of at least `mode`. */
export const globalMode = (mode: AccessMode): RouteAccess => ({ who: 'global', mode });
/** Open to API keys too: a read that changes nothing of an account (see the header). */
export const withKeys = (access: RouteAccess): RouteAccess => ({ ...access, byKey: true });

export const param = (name: string, kind: RefKind): Ref => ({ from: 'param', name, kind });
export const query = (name: string, kind: RefKind, many = false): Ref =>
  many ? { from: 'query', name, kind, many } : { from: 'query', name, kind };
export const inBody = (name: string, kind: RefKind, many = false): Ref =>
  many ? { from: 'body', name, kind, many } : { from: 'body', name, kind };

export const onProcess = (mode: AccessMode, ref: Ref | Ref[]): RouteAccess => ({ who: 'process', mode, ref });
export const onNode = (mode: AccessMode, ref: Ref | Ref[]): RouteAccess => ({ who: 'node', mode, ref });
/** READ on the document's process, or any grant on one of its nodes. */
export const documentReader = (ref: Ref): RouteAccess => ({
  who: 'process',
  mode: 'READ',
  ref,
  viaNode: true,
});

/** The declarations' refs as a list. */
export const refsOf = (access: Access): Ref[] =>
  access.who === 'process' || access.who === 'node'
    ? Array.isArray(access.ref)
      ? access.ref
      : [access.ref]
    : [];

const isMode = (mode: unknown): boolean => AccessModes.includes(mode as AccessMode);

/** What is wrong with an access declaration read at run time (null when nothing): route() refuses it. */
export function accessProblem(access: unknown): string | null {
  if (!access || typeof access !== 'object') return 'no access declaration';
  const a = access as Partial<Record<string, unknown>>;
  if (a.byKey !== undefined && typeof a.byKey !== 'boolean') return 'byKey must be a boolean';
  switch (a.who) {
    case 'public':
    case 'signed-in':
      return null;
    case 'role':
      return typeof a.role === 'string' && a.role ? null : 'a role declaration needs its role';
    case 'global':
      return isMode(a.mode) ? null : `mode ${String(a.mode)} is not one of ${AccessModes}`;
    case 'process':
    case 'node': {
      if (!isMode(a.mode)) return `mode ${String(a.mode)} is not one of ${AccessModes}`;
      const refs = (Array.isArray(a.ref) ? a.ref : [a.ref]) as Partial<Ref>[];
      if (!refs.length) return `a ${a.who} declaration needs the ref of its id`;
      for (const r of refs) {
        if (!r || !['param', 'query', 'body'].includes(r.from as string) || typeof r.name !== 'string')
          return `a ${a.who} declaration needs refs from param, query or body, with a name`;
        if (!Object.hasOwn(REF_KINDS, r.kind as string)) return `ref kind ${String(r.kind)} is unknown`;
      }
      return null;
    }
    default:
      return `who ${String(a.who)} is not public, signed-in, role, global, process or node`;
  }
}
