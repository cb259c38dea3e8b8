/**
 * Payload types of the integrations configuration API (docs/api-graph.md, "Integrations configuration"):
 * LLM models, process secrets, e-mail / SFTP / cloud-drive connections and inter-process receivers.
 * Shared by the API, the web app and the tests.
 */

/** Placeholder sent instead of a stored password or key (ten asterisks). */
export const MASKED_SECRET = '**********';

export interface LlmModelDTO {
  id: number;
  name: string;
  /** E.g. ['text', 'image']; an empty list means the model takes no attachments. */
  modalities: string[];
}

/** A process secret. The value is write-only: it is sent on create and never returned. */
export interface SecretDTO {
  id: number;
  name: string;
  active: boolean;
  processId: number;
}

export interface SecretCreateDTO {
  name: string;
  value: string;
  active?: boolean;
  processId: number;
}

export type ImapPort = 993 | 143;
export type EmailContentType = 'MESSAGE' | 'ATTACHMENT';

export interface EmailConnectionDTO {
  /** Absent / null on create. */
  id?: number | null;
  nodeId: number;
  imapHost: string;
  imapPort: ImapPort;
  address: string;
  /** Always `**********` in responses; on PUT null or `**********` keeps the stored one. */
  password: string | null;
  folder: string;
  contentType: EmailContentType;
  cron: string | null;
}

/** Credentials of an SFTP connection ("password object" of the spec). */
export interface SftpPasswordDTO {
  id?: number | null;
  useKey: boolean;
  username: string | null;
  /** Masked `**********` in responses when stored; null or masked on PUT/test keeps the stored one. */
  password: string | null;
  publicKey: string | null;
  /** Masked `**********` in responses when stored; null or masked on PUT/test keeps the stored one. */
  privateKey: string | null;
}

export interface SftpConnectionDTO {
  id?: number | null;
  nodeId: number;
  name: string;
  address: string;
  port: number;
  folder: string;
  password: SftpPasswordDTO;
  /**
   * The pinned host key, an OpenSSH SHA256 fingerprint (`SHA256:<base64>`); null when not pinned (the worker
   * pins the key it meets on its first connection). Absent on PUT/test: the stored pin unless the address
   * or the port changes.
   */
  hostKey?: string | null;
}

export interface SftpTestResultDTO {
  status: 'OK';
  /** The fingerprint of the host key the server presented. */
  hostKey: string;
}

/** A cloud-drive connection as returned: tokens are never exposed. */
export interface DriveConnectionDTO {
  id: number;
  name: string;
  folderId: string;
  authorized: boolean;
}

export interface DriveConnectionNewDTO {
  name: string;
  folderId: string;
  /** OAuth authorization code from the sign-in pop-up; required for a new connection. */
  authorizationCode: string;
}

export interface DriveConnectionUpdateDTO {
  id: number;
  name: string;
  folderId: string;
  /** Optional re-authorization. */
  authorizationCode?: string | null;
}

export interface DriveConnectionsChangeDTO {
  nodeId: number;
  deletedConnectionIds: number[];
  updatedConnections: DriveConnectionUpdateDTO[];
  newConnections: DriveConnectionNewDTO[];
}

export interface DriveConfigDTO {
  clientId: string;
  scope: string;
  redirectUri: string;
  /** Authorization endpoint of the provider (the web app adds client_id, scope, redirect_uri...). */
  authUrl: string;
}

/** An inter-process receiver (IPR) node a sender can target. */
export interface IprNodeDTO {
  id: number;
  name: string;
  processId: number;
  processName: string;
}

/** The tokens Google grants a drive connection (api/services/google-oauth.ts), stored sealed. */
export interface GrantedTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string;
}
