/**
 * Audit events (issue 15 section 2, JHipster's "audits"): sign-in successes and failures, password changes
 * and resets, changes of users' roles and authorities, of roles and authorities themselves, deletions of
 * users. Stored in PostgreSQL (table `audits`, migration 020) and listed by date range for administrators
 * (`GET management/audits`).
 *
 * Retention: events older than AUDIT_RETENTION_DAYS (default 30) are deleted on write: `recordAudit` purges
 * at most once per PURGE_INTERVAL_MS per API process (an indexed range delete), so no separate scheduler
 * is needed and every replica that writes also cleans. A database nobody signs in to keeps its old rows
 * until the next event; the list never shows them anyway (it is bounded by the range the caller asks for).
 */
import type { Knex } from 'knex';
import { auditPage, insertAudit, purgeExpiredAudits, type AuditQuery } from '../../db/queries/audits';

// The reads and the purge are the table's (db/queries/audits.ts); the routes and tests reach them here.
export { purgeExpiredAudits };

export const AuditTypes = {
  AUTHENTICATION_SUCCESS: 'AUTHENTICATION_SUCCESS',
  AUTHENTICATION_FAILURE: 'AUTHENTICATION_FAILURE',
  PASSWORD_CHANGED: 'PASSWORD_CHANGED',
  PASSWORD_RESET: 'PASSWORD_RESET',
  USER_CREATED: 'USER_CREATED',
  /** roles, own authorities or the activated flag of a user changed (data: before and after) */
  USER_ACCESS_CHANGED: 'USER_ACCESS_CHANGED',
  USER_DELETED: 'USER_DELETED',
  ROLE_CREATED: 'ROLE_CREATED',
  ROLE_UPDATED: 'ROLE_UPDATED',
  ROLE_DELETED: 'ROLE_DELETED',
  AUTHORITY_CREATED: 'AUTHORITY_CREATED',
  AUTHORITY_DELETED: 'AUTHORITY_DELETED',
  API_KEY_CREATED: 'API_KEY_CREATED',
  API_KEY_DELETED: 'API_KEY_DELETED',
} as const;

export interface AuditEvent {
  /** who did it: a login (or the name tried, on a failed sign-in) */
  principal: string;
  /** one of AuditTypes, or a type of another feature (e.g. API_KEY_CREATED) */
  type: string;
  data?: Record<string, unknown>;
}

const PRINCIPAL_MAX = 100;
const TYPE_MAX = 50;
export const PURGE_INTERVAL_MS = 10 * 60 * 1000;
const lastPurge = new WeakMap<Knex, number>();

/**
 * Writes one audit event, and (at most every PURGE_INTERVAL_MS per process) deletes the events past the
 * retention. `deps` is what every route and service has: the knex instance and the app's configuration.
 */
export async function recordAudit(
  deps: { knex: Knex; config: { auditRetentionDays: number } },
  event: AuditEvent,
): Promise<void> {
  const { knex, config } = deps;
  await insertAudit(knex, {
    principal: event.principal.slice(0, PRINCIPAL_MAX),
    type: event.type.slice(0, TYPE_MAX),
    data: event.data ?? {},
  });
  const now = Date.now();
  if (now - (lastPurge.get(knex) ?? 0) >= PURGE_INTERVAL_MS) {
    lastPurge.set(knex, now);
    await purgeExpiredAudits(knex, config.auditRetentionDays);
  }
}

/** Sortable properties of the list (JHipster's names and ours) and their columns. */
export const AUDIT_SORTS: Readonly<Record<string, string>> = {
  id: 'id',
  auditEventDate: 'date',
  timestamp: 'date',
  date: 'date',
  principal: 'principal',
  auditEventType: 'type',
  type: 'type',
};

export type { AuditQuery };
/** A page of events in the date range and the total of the range. */
export { auditPage as listAudits };
