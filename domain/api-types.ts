/** Payload types of the API as the web app and the tests see them. */
import type { AccessMode, ComponentType } from './enums';

export interface AuthorityDTO {
  id: number;
  componentId: number;
  type: ComponentType;
  mode: AccessMode;
}

export interface AccountDTO {
  id: number;
  login: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  activated: boolean;
  langKey: string;
  roles: string[];
  /** Authorities of the user's roles and the user's own, merged without duplicates. */
  authorities: AuthorityDTO[];
  createdBy: string | null;
  createdDate: string | null;
  lastModifiedBy: string | null;
  lastModifiedDate: string | null;
}

export interface ProcessTagDTO {
  id: number;
  name: string;
  color: string;
  predefined: boolean;
}

export interface ProcessActorDTO {
  id?: number;
  processId: number;
  actor: string;
  name: string;
}

export interface ProcessDTO {
  id: number;
  name: string;
  processTags: ProcessTagDTO[];
  isRagEnabled: boolean;
  ragTextSplitter: { id: number; name?: string } | null;
  actors: ProcessActorDTO[];
  /** The caller's access mode on the process (derived; lets the UI mirror the server's checks). */
  accessMode: AccessMode | null;
}

export interface ExternalDocumentSplitterDTO {
  id: number;
  name: string;
  description: string | null;
}

export interface FieldErrorDTO {
  objectName: string;
  field: string;
  /** Constraint name: NotBlank, Size, Pattern, Email, NotUnique, Match, Required. */
  message: string;
  /** i18n key of the rule that failed. */
  key: string;
}

export interface ErrorBodyDTO {
  status: number;
  title: string;
  message: string;
  detail?: string;
  key?: string;
  /** Short key of an app error (userexists, emailexists, ...). */
  errorKey?: string;
  params?: Record<string, unknown>;
  fieldErrors?: FieldErrorDTO[];
}

export interface HealthDTO {
  status: 'UP' | 'DOWN';
  /** UNKNOWN: not configured (mail without SMTP_HOST). */
  components: Record<string, { status: 'UP' | 'DOWN' | 'UNKNOWN'; details?: Record<string, unknown> }>;
}

/** One entry of `GET management/http-logs` (table http_logs, migration 021). */
export interface HttpLogDTO {
  id: number;
  /** ISO time the request arrived */
  time: string;
  method: string;
  /** the path, without the query string */
  path: string;
  /** the router's route pattern, `UNMATCHED` or `STATIC` */
  route: string | null;
  status: number;
  durationMs: number;
  /** login of the caller */
  principal: string | null;
  remoteAddress: string | null;
  requestId: string | null;
  userAgent: string | null;
}

/**
 * A user as administrators see and edit it (api/users; issue 15): the account's fields, but `authorities`
 * are the user's own (those of the roles are on the roles).
 */
export type AdminUserDTO = AccountDTO;

/** An authority with what it names, for pickers and lists (GET api/authorities). */
export interface AuthorityViewDTO extends AuthorityDTO {
  /** the process's or node's name; null for the global permission (component -1) or a deleted component */
  componentName: string | null;
  /** the process of a node (or the process itself); null for the global permission */
  processId: number | null;
  processName: string | null;
}

/** A role: a name bundling authorities (api/roles). Built-in roles cannot be renamed or deleted. */
export interface RoleDTO {
  id: number;
  name: string;
  builtIn: boolean;
  authorities: AuthorityDTO[];
}

/** An audit event (GET management/audits; api/services/audits.ts). */
export interface AuditDTO {
  id: number;
  /** who did it: a login, or the name tried on a failed sign-in */
  principal: string;
  type: string;
  /** ISO date-time */
  timestamp: string;
  data: Record<string, unknown>;
}
