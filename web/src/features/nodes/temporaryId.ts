/** A temporary negative id for a row added locally (mail receivers, transfer rules); the API drops it on save. */
export const temporaryId = (): number => -Math.floor(1 + Math.random() * 1_000_000_000);
