/**
 * E-mail upload connections of EMAIL_UPLOAD nodes (IMAP mailbox polled on a cron): plain reads and writes of
 * their table, which live in db/queries/email-connections.ts (the password sealed there, never returned);
 * the routes reach them here.
 */
export * from '../../db/queries/email-connections';
