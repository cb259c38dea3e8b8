/**
 * The `sftp_connections` row as stored (password and private key sealed, db/crypto.ts): read by the API's
 * connection routes and by the worker's SFTP poller and SEND_TO_SFTP action.
 */
export interface SftpConnectionRow {
  id: number;
  node_id: number;
  name: string;
  address: string;
  port: number;
  folder: string;
  use_key: boolean;
  username: string | null;
  password: string | null;
  public_key: string | null;
  private_key: string | null;
}
