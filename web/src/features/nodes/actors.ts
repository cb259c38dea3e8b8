/**
 * Process actors as the file-parser panel edits them: speakers SPEAKER1..n (at least one); lowering the
 * count removes the highest-numbered speakers, raising it adds the next ones with a default name.
 */
import type { ProcessActorDTO } from '@domain';

export const MIN_ACTORS = 1;

export interface ActorRow {
  actor: string;
  name: string;
}

const numberOf = (actor: string): number => {
  const m = /(\d+)$/.exec(actor);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
};

/** Speakers ordered by their number. */
export const sortActors = (actors: readonly Pick<ProcessActorDTO, 'actor' | 'name'>[]): ActorRow[] =>
  [...actors]
    .map(({ actor, name }) => ({ actor, name }))
    .sort((a, b) => numberOf(a.actor) - numberOf(b.actor));

/** The list resized to `count` (never below MIN_ACTORS). */
export function resizeActors(
  actors: readonly ActorRow[],
  count: number,
  defaultName: (n: number) => string,
): ActorRow[] {
  const target = Math.max(MIN_ACTORS, Math.floor(count));
  const sorted = sortActors(actors);
  if (sorted.length >= target) return sorted.slice(0, target);
  const next = [...sorted];
  let n = sorted.reduce((max, a) => {
    const k = numberOf(a.actor);
    return k === Number.MAX_SAFE_INTEGER ? max : Math.max(max, k);
  }, 0);
  while (next.length < target) {
    n += 1;
    next.push({ actor: `SPEAKER${n}`, name: defaultName(n) });
  }
  return next;
}
