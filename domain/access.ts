/**
 * Access-mode resolution (spec 1 section 6): ADMIN > WRITE > READ per PROCESS or NODE component;
 * the admin role gets ADMIN everywhere; a node gets the higher of its process's mode and its own;
 * the global permission is an authority on component id -1.
 *
 * Runs inside the document workflow (workflows/document.ts, in the workflow bundle; what it decides there:
 * modeSatisfies, through the refusals of domain/steps.ts). A change that alters a decision for a running document must be guarded by `patched()` in the
 * workflow and pass the replay suite (tests/replay/replay.test.ts); see docs/architecture.md.
 */
import { AccessMode, AccessModes, ComponentType, GLOBAL_COMPONENT_ID, Roles } from './enums';

export interface AuthorityGrant {
  id?: number;
  componentId: number;
  type: ComponentType;
  mode: AccessMode;
}

export interface Principal {
  roles: readonly string[];
  authorities: readonly AuthorityGrant[];
}

const rank = (mode: AccessMode | null | undefined): number => (mode ? AccessModes.indexOf(mode) + 1 : 0);

/** The higher of two modes; null counts as no access. */
export function higherMode(a: AccessMode | null, b: AccessMode | null): AccessMode | null {
  return rank(a) >= rank(b) ? a : b;
}

/** True when `held` is at least `required`. */
export function modeSatisfies(held: AccessMode | null, required: AccessMode): boolean {
  return rank(held) >= rank(required);
}

export function isAdmin(principal: Principal): boolean {
  return principal.roles.includes(Roles.ADMIN);
}

function grantedMode(principal: Principal, type: ComponentType, componentId: number): AccessMode | null {
  let best: AccessMode | null = null;
  for (const a of principal.authorities) {
    if (a.type === type && a.componentId === componentId) best = higherMode(best, a.mode);
  }
  return best;
}

/** The mode a principal holds on a process (ADMIN for admins, else the best authority on it). */
export function processMode(principal: Principal, processId: number): AccessMode | null {
  if (isAdmin(principal)) return 'ADMIN';
  return grantedMode(principal, 'PROCESS', processId);
}

/** The mode on a node: the higher of the node's own mode and the mode on the process it belongs to. */
export function nodeMode(principal: Principal, nodeId: number, processId: number): AccessMode | null {
  if (isAdmin(principal)) return 'ADMIN';
  return higherMode(grantedMode(principal, 'NODE', nodeId), processMode(principal, processId));
}

/** "Process permission at global level": any PROCESS authority on component -1 (or the admin role). */
export function hasGlobalProcessPermission(principal: Principal, required: AccessMode = 'READ'): boolean {
  return modeSatisfies(processMode(principal, GLOBAL_COMPONENT_ID), required);
}

/** Route guard rule: any one of the listed roles; an empty list means "at least one role". */
export function hasAnyRole(userRoles: readonly string[], required: readonly string[]): boolean {
  if (userRoles.length === 0) return false;
  if (required.length === 0) return true;
  const norm = (r: string) => (r.startsWith('ROLE_') ? r : `ROLE_${r}`);
  const held = new Set(userRoles.map(norm));
  return required.some((r) => held.has(norm(r)));
}

/** Authorities of the user's roles and the user's own, merged without duplicates. */
export function mergeAuthorities(...lists: readonly (readonly AuthorityGrant[])[]): AuthorityGrant[] {
  const seen = new Map<string, AuthorityGrant>();
  for (const list of lists) {
    for (const a of list) {
      const key = a.id !== undefined ? `id:${a.id}` : `${a.type}:${a.componentId}:${a.mode}`;
      if (!seen.has(key)) seen.set(key, a);
    }
  }
  return [...seen.values()];
}

/** The nodes the principal holds a mode on (NODE authorities). */
export const grantedNodeIds = (principal: Principal): number[] =>
  principal.authorities.filter((a) => a.type === 'NODE').map((a) => a.componentId);

/**
 * Who reads a process's documents (their content, state, history, page images, audio): READ or more on the
 * process, or a mode on one of its nodes (an annotator granted one node reads the documents passing through
 * it). `grantedNodesOfProcess`: the ids of the process's nodes among `grantedNodeIds(principal)`.
 */
export function readsDocumentsOf(
  principal: Principal,
  processId: number,
  grantedNodesOfProcess: readonly number[],
): boolean {
  return processMode(principal, processId) !== null || grantedNodesOfProcess.length > 0;
}
