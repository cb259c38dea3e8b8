/**
 * Cloud-drive connections of GDU_UPLOAD and SEND_TO_GOOGLE_DRIVE nodes (one per node): plain reads and the
 * batch write of their table, which live in db/queries/drive-connections.ts; the routes reach them here.
 */
export * from '../../db/queries/drive-connections';
