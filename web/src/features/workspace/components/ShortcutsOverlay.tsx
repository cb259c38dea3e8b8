/**
 * The `?` overlay (issue 30): every keyboard shortcut of the current screen, the frame's, the mode's of the
 * text or the speech workspace, and the label hotkeys of the selected step's node (clashing ones marked).
 */
import { useTranslation } from 'react-i18next';
import { shortcutSequence } from '@domain/label-shortcuts';
import { Modal } from '../../../components/Modal';
import type { StepLabels } from '../hooks/useLabelHotkeys';
import type { ProcessingMode } from '../model';
import { Keys } from './HotkeyLegend';

export type WorkspaceKind = 'text' | 'speech';

/** Shortcut rows by screen: keys shown as typed, the action as an i18n key under workspace.shortcuts.do. */
const FRAME: [string[], string][] = [
  [['?'], 'help'],
  [['Alt', 'Shift', 'T'], 'focusText'],
  [['h'], 'hidden'],
  [['Ctrl', 'H'], 'debug'],
  [['Ctrl', 'Q'], 'debugMove'],
];
const BY_SCREEN: Record<string, [string[], string][]> = {
  'text:LABELING': [
    [['Shift', '←/→'], 'select'],
    [['Ctrl', 'Shift', '←/→'], 'selectWord'],
    [['↑/↓', 'Home', 'End'], 'caret'],
    [['Enter'], 'labelMenu'],
    [['l'], 'labelMenu'],
    [['Delete'], 'deleteTag'],
    [['Escape'], 'deselect'],
    [['Ctrl', 'Z'], 'undo'],
    [['Ctrl', 'Shift', 'Z'], 'redo'],
    [['Alt', 'click'], 'relate'],
  ],
  'speech:LABELING': [
    [['←/→'], 'traverse'],
    [['Shift', '←/→'], 'select'],
    [['Enter'], 'labelMenu'],
    [['l'], 'labelMenu'],
    [['Delete'], 'deleteTag'],
    [['Space'], 'play'],
    [['Escape'], 'deselect'],
    [['Ctrl', 'Z'], 'undo'],
    [['Ctrl', 'Shift', 'Z'], 'redo'],
    [['Alt', 'click'], 'relate'],
  ],
  'speech:EDITING': [
    [['←/→'], 'traverse'],
    [['Shift', '←/→'], 'select'],
    [['Enter'], 'editWord'],
    [['p'], 'actor'],
    [[']'], 'extractRest'],
    [['e'], 'extract'],
    [['↑/↓'], 'moveBlock'],
    [['Space'], 'play'],
    [['Ctrl', 'Z'], 'undo'],
    [['Ctrl', 'Shift', 'Z'], 'redo'],
  ],
  'speech:CLASSIFYING': [
    [['←/→'], 'traverse'],
    [['Space'], 'play'],
  ],
};

export function ShortcutsOverlay({
  kind,
  mode,
  labels,
  onClose,
}: {
  kind: WorkspaceKind;
  mode: ProcessingMode | null;
  labels: StepLabels;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rows = [...FRAME, ...(BY_SCREEN[`${kind}:${mode ?? ''}`] ?? [])];
  return (
    <Modal title={t('workspace.shortcuts.title')} onClose={onClose} testId="shortcuts-overlay" size="lg">
      <table className="table table-sm small mb-3">
        <caption className="caption-top">{t('workspace.shortcuts.screen')}</caption>
        <tbody>
          {rows.map(([keys, action], i) => (
            <tr key={i}>
              <th scope="row" className="fw-normal text-nowrap">
                <Keys keys={keys} />
              </th>
              <td>{t(`workspace.shortcuts.do.${action}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table table-sm small mb-0" data-testid="shortcuts-labels">
        <caption className="caption-top">
          {t(labels.kind === 'CLASSIFIER' ? 'workspace.shortcuts.classes' : 'workspace.shortcuts.labels')}
        </caption>
        <tbody>
          {labels.labels.length === 0 ? (
            <tr>
              <td>{t('workspace.shortcuts.noLabels')}</td>
            </tr>
          ) : (
            labels.labels.map((l) => (
              <tr key={l.id} className={labels.conflicts.has(l.id) ? 'table-warning' : undefined}>
                <th scope="row" className="fw-normal text-nowrap">
                  <Keys keys={shortcutSequence(l)} />
                </th>
                <td>
                  {l.path}
                  {labels.conflicts.has(l.id) && ` (${t('workspace.hotkeys.clash')})`}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </Modal>
  );
}
