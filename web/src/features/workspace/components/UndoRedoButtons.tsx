/**
 * The Undo and Redo buttons of a workspace view (the text workspace's LABELING bar, the speech workspace's
 * EDITING and LABELING bars), disabled when their side of the stack is empty; the hints name the shortcuts.
 */
import { useTranslation } from 'react-i18next';

export interface UndoRedoButtonsProps {
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  /** The undo button's tooltip (what it undoes). */
  undoHint: string;
  /** `${testId}-undo` and `${testId}-redo`. */
  testId: string;
}

export function UndoRedoButtons({
  canUndo,
  canRedo,
  onUndo,
  onRedo,
  undoHint,
  testId,
}: UndoRedoButtonsProps) {
  const { t } = useTranslation();
  const button = (kind: 'undo' | 'redo', enabled: boolean, onClick: () => void, title: string) => (
    <button
      type="button"
      className="btn btn-sm btn-outline-secondary"
      disabled={!enabled}
      onClick={onClick}
      data-testid={`${testId}-${kind}`}
      title={title}
    >
      {t(`workspace.labeling.${kind}`)}
    </button>
  );
  return (
    <>
      {button('undo', canUndo, onUndo, undoHint)}
      {button('redo', canRedo, onRedo, t('workspace.labeling.redoHint'))}
    </>
  );
}
