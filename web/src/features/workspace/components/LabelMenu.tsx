/**
 * The entity labelling menu (spec 2 section 2): a search box (from 2 characters, stripping _ " ' , ( ) < >),
 * the option tree with breadcrumbs (shortened with '...->' beyond 3 steps), at most 300 px high, 501 wide,
 * 'No options available' when nothing matches. Arrow keys move over the selectable options, Enter or a click
 * chooses, Escape closes. For a new label it offers "all occurrences" of the selected text.
 * With WRITE on the options' node, each option has an add action (a child of it; on a node's root, a top
 * level option) and each non-root option an edit action (spec 2 sections 2 and 6). While their dialog is
 * open the menu stays open (an outside click or Escape belongs to the dialog); a saved option is made the
 * active one once the refetched tree holds it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pointAnchor, useFloatingMenu, type Anchor } from '../../../components/floatingMenu';
import type { NerTagTypeDTO } from '@domain/label-types';
import type { TagTypeOption } from '@domain/tags';
import { breadcrumb, filterOptions } from '../labelling';
import { ReportIssueEntry } from './ReportIssueEntry';
import { TagOptionDialog, type TagOptionDialogState } from './TagOptionDialog';

/** Who may add and edit options of the menu: WRITE (or ADMIN) on `nodeId`. */
export interface OptionEditing {
  nodeId: number;
  /** ADMIN on the node: the whole tag type; else its name and colours. */
  admin: boolean;
  /** After a save: refetches the option tree (resolved once it is refetched). */
  onSaved: (saved: NerTagTypeDTO) => Promise<unknown>;
}

export interface LabelMenuProps {
  x: number;
  y: number;
  /** the selection's box (opened by the keyboard): the menu opens beside it, never over it */
  anchor?: Anchor;
  options: TagTypeOption[] | undefined;
  /** 'new' labels the selection, 'retype' changes the selected tag's type. */
  purpose: 'new' | 'retype';
  /** The selected text (for the header). */
  selectedText: string;
  /** How many occurrences "all occurrences" would label (new labels only). */
  occurrences: number;
  onChoose: (option: TagTypeOption, allOccurrences: boolean) => void;
  onClose: () => void;
  /** Absent: no add or edit actions. */
  editing?: OptionEditing;
  /** 'Problem z oznaczeniem': raises an issue on the selection or tag (absent: no entry). */
  onReportIssue?: () => void;
  /** a relation candidate is unsaved: the entry asks to save first */
  issueUnsaved?: boolean;
}

export const MENU_WIDTH = 501;

export function LabelMenu(props: LabelMenuProps) {
  const { t } = useTranslation();
  const { options, onChoose, onClose } = props;
  const [query, setQuery] = useState('');
  const [all, setAll] = useState(false);
  const rows = useMemo(() => filterOptions(options ?? [], query), [options, query]);
  const selectable = rows.filter((r) => r.option.selectable);
  const [active, setActive] = useState(0);
  const activeId = selectable[Math.min(active, selectable.length - 1)]?.option.optionId;
  const searching = query.trim().length >= 2;
  const [dialog, setDialog] = useState<TagOptionDialogState | null>(null);
  // While the dialog is open, an outside press or Escape belongs to it.
  const { ref: menuRef, style: menuStyle } = useFloatingMenu({
    anchor: props.anchor ?? pointAnchor(props.x, props.y),
    gap: props.anchor ? 4 : 0,
    onClose,
    paused: dialog !== null,
  });
  // The option saved in the dialog, made active once the refetched tree shows it.
  const [saved, setSaved] = useState<number | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const { editing } = props;
  const mayEdit = (option: TagTypeOption) => !!editing && option.nodeId === editing.nodeId;

  useEffect(() => setActive(0), [query]);

  useEffect(() => {
    if (saved === null) return;
    const at = selectable.findIndex((r) => r.option.optionId === saved);
    if (at < 0) return;
    setActive(at);
    setSaved(null);
  }, [saved, selectable]);

  const closeDialog = useCallback(() => {
    setDialog(null);
    searchRef.current?.focus();
  }, []);

  const onSaved = (option: NerTagTypeDTO) => {
    setQuery('');
    void editing?.onSaved(option).then(() => setSaved(option.id));
  };

  useEffect(() => {
    menuRef.current?.querySelector('[data-active="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [activeId, menuRef]);

  // Escape: useFloatingMenu.
  const onKey = (e: React.KeyboardEvent) => {
    if (dialog) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!selectable.length) return;
      const n = selectable.length;
      setActive((a) => (Math.min(a, n - 1) + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const row = selectable.find((r) => r.option.optionId === activeId);
      if (row) onChoose(row.option, all);
    }
    e.stopPropagation();
  };

  const action = (kind: TagOptionDialogState['kind'], option: TagTypeOption, label: string, icon: string) => (
    <button
      type="button"
      className="btn btn-sm btn-link ws-label-action"
      title={label}
      aria-label={label}
      data-testid={`label-option-${kind}`}
      data-icon={icon}
      onMouseDown={(e) => e.preventDefault()}
      onClick={(e) => {
        e.stopPropagation();
        setDialog({ kind, option });
      }}
    />
  );

  return (
    <>
      <div
        ref={menuRef}
        className={`ws-label-menu shadow${dialog ? ' ws-label-menu-behind' : ''}`}
        style={{ ...menuStyle, width: MENU_WIDTH }}
        data-testid="label-menu"
        role="dialog"
        aria-label={t('workspace.labeling.menuTitle')}
        onKeyDown={onKey}
        onContextMenu={(e) => e.preventDefault()}
      >
        <div className="ws-label-menu-head">
          <span className="text-truncate small text-body-secondary" data-testid="label-menu-selection">
            {props.purpose === 'retype'
              ? t('workspace.labeling.retypeTitle', { text: props.selectedText })
              : t('workspace.labeling.labelTitle', { text: props.selectedText })}
          </span>
        </div>
        <input
          ref={searchRef}
          className="form-control form-control-sm"
          autoFocus
          placeholder={t('workspace.labeling.search')}
          aria-label={t('workspace.labeling.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="label-menu-search"
        />
        {props.purpose === 'new' && props.occurrences > 1 && (
          <label className="form-check small mt-1 mb-0">
            <input
              type="checkbox"
              className="form-check-input"
              checked={all}
              onChange={(e) => setAll(e.target.checked)}
              data-testid="label-menu-all"
            />
            <span className="form-check-label">
              {t('workspace.labeling.allOccurrences', { count: props.occurrences })}
            </span>
          </label>
        )}
        <ul className="ws-label-options" role="listbox" data-testid="label-menu-options">
          {options === undefined ? (
            <li className="text-body-secondary small p-2">{t('workspace.loading')}</li>
          ) : rows.length === 0 ? (
            <li className="text-body-secondary small p-2" data-testid="label-menu-empty">
              {t('workspace.labeling.noOptions')}
            </li>
          ) : (
            rows.map(({ option, depth }) => (
              <li
                key={option.optionId}
                role="option"
                aria-selected={option.optionId === activeId}
                aria-disabled={!option.selectable}
                data-active={option.optionId === activeId}
                data-option-id={option.optionId}
                data-testid="label-option"
                className={`ws-label-option${option.selectable ? '' : ' ws-label-option-off'}${
                  option.isRoot ? ' ws-label-option-root' : ''
                }`}
                style={{ paddingLeft: 8 + depth * 16 }}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => option.selectable && onChoose(option, all)}
              >
                <span className="ws-label-swatch" style={{ background: option.backgroundColor }} />
                <span className="text-truncate">
                  {option.name}
                  {searching && <span className="ws-label-crumb"> {breadcrumb(option.path)}</span>}
                </span>
                {mayEdit(option) && (
                  <span className="ws-label-actions">
                    {action('add', option, t('workspace.labeling.addOption', { name: option.name }), '+')}
                    {!option.isRoot &&
                      action('edit', option, t('workspace.labeling.editOption', { name: option.name }), '✎')}
                  </span>
                )}
              </li>
            ))
          )}
        </ul>
        {props.onReportIssue && (
          <ReportIssueEntry
            selected={props.selectedText.trim() !== ''}
            unsaved={props.issueUnsaved}
            onReport={props.onReportIssue}
          />
        )}
      </div>
      {dialog && editing && (
        <TagOptionDialog dialog={dialog} admin={editing.admin} onSaved={onSaved} onClose={closeDialog} />
      )}
    </>
  );
}
