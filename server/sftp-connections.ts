/** The `sftp_connections` row as stored: its type lives with its table (db/queries/sftp-connections.ts). */
export type { SftpConnectionRow } from '../db/queries/sftp-connections';
