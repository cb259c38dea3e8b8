/**
 * The relation menu (spec 2 section 2): the relation types that may link two tags, best first (the API's
 * candidates: same node, kind, ancestry, priority and priority mode), to add a candidate relation or change
 * an existing one; 'No relations for these tags' ('Brak relacji dla tagów') when there is none. Arrow keys
 * move, Enter or a click chooses, Escape or a click outside closes.
 */
import { useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pointAnchor, useFloatingMenu } from '../../../components/floatingMenu';
import type { RelationTypeDTO } from '@domain/label-types';

export interface RelationMenuProps {
  x: number;
  y: number;
  /** 'new' adds a candidate, 'change' changes the type of an existing relation */
  purpose: 'new' | 'change';
  fromText: string;
  toText: string;
  candidates: RelationTypeDTO[];
  /** why the two tags cannot be related at all (a message key), if so */
  message: string | null;
  currentTypeId?: number;
  onChoose: (type: RelationTypeDTO) => void;
  onClose: () => void;
}

const short = (s: string) => (s.length > 30 ? `${s.slice(0, 29)}…` : s);

export function RelationMenu(props: RelationMenuProps) {
  const { t } = useTranslation();
  const { candidates, onChoose, onClose } = props;
  const [active, setActive] = useState(0);
  // 8 px off the pointer (below it, or above without room).
  const { ref, style } = useFloatingMenu({ anchor: pointAnchor(props.x, props.y), gap: 8, onClose });

  useLayoutEffect(() => ref.current?.focus(), [props.x, props.y, ref]);

  // Escape: useFloatingMenu.
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, candidates.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter' && candidates[active]) {
      e.preventDefault();
      onChoose(candidates[active]);
    }
    e.stopPropagation();
  };

  return (
    <div
      ref={ref}
      className="ws-relation-menu shadow"
      style={style}
      role="menu"
      tabIndex={-1}
      onKeyDown={onKey}
      data-testid="relation-menu"
    >
      <div className="ws-relation-menu-head small text-body-secondary">
        {t(
          props.purpose === 'new'
            ? 'workspace.relations.menu.titleNew'
            : 'workspace.relations.menu.titleChange',
        )}
        <div className="text-truncate" data-testid="relation-menu-pair">
          “{short(props.fromText)}” → “{short(props.toText)}”
        </div>
      </div>
      {candidates.length === 0 ? (
        <div className="p-2 small text-body-secondary" data-testid="relation-menu-empty">
          {t('workspace.relations.menu.empty')}
          {props.message && <div className="mt-1">{t(props.message)}</div>}
        </div>
      ) : (
        <ul className="list-unstyled mb-0 ws-relation-options">
          {candidates.map((c, i) => (
            <li key={c.id}>
              <button
                type="button"
                role="menuitem"
                className={`ws-relation-option${i === active ? ' is-active' : ''}${c.id === props.currentTypeId ? ' is-current' : ''}`}
                onMouseEnter={() => setActive(i)}
                onClick={() => onChoose(c)}
                data-testid="relation-option"
                data-type-id={c.id}
              >
                <span className="ws-label-swatch" style={{ background: c.color }} />
                <span className="flex-grow-1 text-start">{c.name}</span>
                <span className="badge text-bg-light border">
                  {t(`workspace.relations.priority.${c.priority}`)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
