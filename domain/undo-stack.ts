/**
 * A bounded undo / redo stack of a workspace session (spec 2 section 4): the changes a user made, newest
 * last, and the ones undone, ready to be redone. Generic over what a change is: the text workspace keeps
 * tag changes in it (web/src/features/workspace/labelling.ts), the speech workspace transcript edits
 * (domain/transcript-history.ts). Pure.
 */

export interface UndoStack<Op> {
  past: Op[];
  future: Op[];
}

export const emptyStack: UndoStack<never> = { past: [], future: [] };

/** Most steps kept. */
export const UNDO_LIMIT = 100;

/** A new change: on top of the past (the oldest dropped beyond `limit`), and the redo branch is dropped. */
export const pushOp = <Op>(stack: UndoStack<Op>, op: Op, limit = UNDO_LIMIT): UndoStack<Op> => ({
  past: [...stack.past, op].slice(-limit),
  future: [],
});

/** The change to revert and the stack after it, or null when there is nothing to undo. */
export function takeUndo<Op>(stack: UndoStack<Op>): { op: Op; stack: UndoStack<Op> } | null {
  const op = stack.past.at(-1);
  if (op === undefined) return null;
  return { op, stack: { past: stack.past.slice(0, -1), future: [...stack.future, op] } };
}

/** The change to apply again and the stack after it, or null when there is nothing to redo. */
export function takeRedo<Op>(stack: UndoStack<Op>): { op: Op; stack: UndoStack<Op> } | null {
  const op = stack.future.at(-1);
  if (op === undefined) return null;
  return { op, stack: { past: [...stack.past, op], future: stack.future.slice(0, -1) } };
}
