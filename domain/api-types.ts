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
