/**
 * The label hotkeys of the selected step's node (issue 30): a disclosure in the view's bar that names how
 * many labels have keys (and how many clash), opened to list each label with its keys; clashing labels are
 * marked and never applied. Also shows the keys typed so far of a started sequence (a live status).
 */
import { useTranslation } from 'react-i18next';
import { shortcutSequence } from '@domain/label-shortcuts';
import type { HotkeyLabel } from '../hooks/useLabelHotkeys';

export function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <span className="ws-keys">
      {keys.map((k, i) => (
        <kbd key={i}>{k}</kbd>
      ))}
    </span>
  );
}

export function HotkeyLegend({
  labels,
  conflicts,
  pending,
}: {
  labels: readonly HotkeyLabel[];
  conflicts: ReadonlySet<number>;
  pending: readonly string[];
}) {
  const { t } = useTranslation();
  if (!labels.length) return null;
  return (
    <div className="ws-hotkeys small">
      <details data-testid="hotkey-legend">
        <summary>
          {t('workspace.hotkeys.summary', { count: labels.length })}
          {conflicts.size > 0 && (
            <span className="badge text-bg-warning ms-1">
              {t('workspace.hotkeys.conflicts', { count: conflicts.size })}
            </span>
          )}
        </summary>
        <ul className="ws-hotkey-list list-unstyled mb-0">
          {labels.map((l) => {
            const clash = conflicts.has(l.id);
            return (
              <li
                key={l.id}
                data-testid="hotkey"
                data-conflict={clash}
                className={clash ? 'text-danger' : undefined}
              >
                <Keys keys={shortcutSequence(l)} />
                <span className="ws-label-swatch" style={{ background: l.backgroundColor }} />
                <span>{l.path}</span>
                {clash && <span className="ms-1">({t('workspace.hotkeys.clash')})</span>}
                {!l.usable && !clash && (
                  <span className="ms-1 text-body-secondary">({t('workspace.hotkeys.notSelectable')})</span>
                )}
              </li>
            );
          })}
        </ul>
      </details>
      <span role="status" className="ws-hotkey-pending" data-testid="hotkey-pending">
        {pending.length > 0 && (
          <>
            {t('workspace.hotkeys.pending')} <Keys keys={pending} />
          </>
        )}
      </span>
    </div>
  );
}
