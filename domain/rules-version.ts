/**
 * The version of the rules a document workflow decides by: domain/document-transition.ts and every domain
 * module the workflows import (steps, predicates, nodes...). A running workflow and the `transit` activity
 * (activities/projection) both plan each transition from these rules, and a replay re-plans it from what the
 * activity read, so a change to a rule that could make a running document decide otherwise must not reach
 * the runs begun under the old rule unannounced:
 * 1. keep the old behaviour beside the new one in the domain, chosen by the rules version it is given;
 * 2. raise RULES_VERSION: workflows/document.ts (rulesVersionOfRun) then decides each run's version once, at
 *    its start, with `patched('rules-<N>')`: new runs take the new rules, runs begun before keep theirs;
 * 3. record a history with the new rules (scripts/record-histories.ts) beside the kept ones;
 * 4. put the new code's fingerprint under the new version in RULES_FINGERPRINTS.
 * The version travels in `transit`'s input as data (TransitInput.rulesVersion), so the activity plans with
 * the rules the workflow decides by. scripts/rules-version.test.ts computes the fingerprint of the rules'
 * code (comments and types left out) and fails when it is not the current version's: a change that leaves
 * every decision as it was (a rename, a faster loop) updates the fingerprint of the current version, in the
 * same commit, saying so.
 */
export const RULES_VERSION = 1;

/** sha256 of the rules' code (domain modules the workflows import, comments and types left out), by version. */
export const RULES_FINGERPRINTS: Record<number, string> = {
  1: 'fc48ee9815aa0edc9bc5196155e09b354a1b8571dcf567e907e086ef3fd3682a',
};

/** The rules version `v`, refused when this code does not know it (a worker older than the run). */
export function knownRules(v: number | undefined): number {
  const version = v ?? 1;
  if (!Number.isInteger(version) || version < 1 || version > RULES_VERSION)
    // Not an ApplicationFailure (pure module): fails the task, retried until a worker that knows it runs it.
    throw new Error(`Rules version ${version} is newer than this worker's ${RULES_VERSION}`);
  return version;
}
