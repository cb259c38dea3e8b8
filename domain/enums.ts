/**
 * Shared enumerations of the product (spec 1 sections 3 and 6).
 *
 * In the workflow bundle (imported through domain/nodes.ts; no workflow decision depends on it): keep it free
 * of I/O, clocks and randomness, and a change that would reach a workflow decision follows the `patched()` rule
 * of domain/steps.ts.
 */

export const Roles = {
  ADMIN: 'ROLE_ADMIN',
  USER: 'ROLE_USER',
  SUPER_ANNOTATOR: 'ROLE_SUPER_ANNOTATOR',
} as const;
export type RoleName = (typeof Roles)[keyof typeof Roles];
export const ALL_ROLES: readonly RoleName[] = [Roles.ADMIN, Roles.USER, Roles.SUPER_ANNOTATOR];

/** Route guards name roles without the ROLE_ prefix ("ADMIN", "USER"); both spellings are accepted. */
export function normalizeRole(name: string): string {
  return name.startsWith('ROLE_') ? name : `ROLE_${name}`;
}

export const AccessModes = ['READ', 'WRITE', 'ADMIN'] as const;
export type AccessMode = (typeof AccessModes)[number];

export const ComponentTypes = ['PROCESS', 'NODE'] as const;
export type ComponentType = (typeof ComponentTypes)[number];

/** componentId of the global permission ("process permission at global level"). */
export const GLOBAL_COMPONENT_ID = -1;

export const ActivityTypes = [
  'HUP',
  'FILE_PARSER',
  'CLF',
  'EMAIL_UPLOAD',
  'SFTP_UPLOAD',
  'GDU_UPLOAD',
  'SPAN',
  'LEXICON',
  'LLM_PROMPT',
  'IPS',
  'IPR',
  'SEND_TO_GOOGLE_DRIVE',
  'SEND_MAIL',
  'SEND_REQUEST',
  'SEND_TO_SFTP',
] as const;
export type ActivityType = (typeof ActivityTypes)[number];

export const DocumentTypes = ['TEXTFILE', 'AUDIOFILE'] as const;
export type DocumentType = (typeof DocumentTypes)[number];
