/**
 * The tag legend and the tag list of the LABELING mode (spec 2 section 4 "Other", issue 11 section 3), a
 * panel beside the text:
 * - the legend: the tag types present in the document as a tree with tri-state checkboxes (a parent is
 *   checked, unchecked or indeterminate from the types under it; a click on a parent shows or hides them all);
 *   hidden types are drawn without their tags in the text;
 * - the tag list: every tag (type, text excerpt, offsets) in text order, filtered by a type-ahead search (a
 *   case-insensitive prefix of the type name or the text); a click scrolls the text to the tag and selects it.
 *   The list shows `PAGE` rows and more on demand, so 5,000 tags never make 5,000 rows.
 * The pure rules are in ../legend.ts.
 */
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkState, legendRows, legendTree, tagListRows, type LegendNode, type LegendTag } from '../legend';

const PAGE = 100;

function TriCheckbox({
  node,
  hidden,
  onToggle,
}: {
  node: LegendNode;
  hidden: ReadonlySet<number>;
  onToggle: () => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const state = checkState(node, hidden);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'indeterminate';
  }, [state]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="form-check-input mt-0"
      checked={state === 'checked'}
      onChange={onToggle}
      data-testid="legend-check"
      data-state={state}
      aria-checked={state === 'indeterminate' ? 'mixed' : state === 'checked'}
    />
  );
}

export const TagLegendPanel = memo(function TagLegendPanel({
  tags,
  text,
  hidden,
  onToggle,
  selectedId,
  onSelect,
}: {
  tags: readonly LegendTag[];
  text: string;
  hidden: ReadonlySet<number>;
  onToggle: (node: LegendNode) => void;
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [limit, setLimit] = useState(PAGE);
  const deferredQuery = useDeferredValue(query);
  const rows = useMemo(() => legendRows(legendTree(tags)), [tags]);
  const list = useMemo(() => tagListRows(tags, text, deferredQuery), [tags, text, deferredQuery]);
  useEffect(() => setLimit(PAGE), [deferredQuery]);

  return (
    <aside
      className="ws-legend small"
      data-testid="tag-legend-panel"
      aria-label={t('workspace.legend.title')}
    >
      <div className="ws-legend-section">
        <div className="ws-legend-head">{t('workspace.legend.types')}</div>
        {!rows.length && <div className="text-body-secondary">{t('workspace.legend.noTags')}</div>}
        <ul className="ws-legend-tree" data-testid="tag-legend">
          {rows.map(({ node, depth }) => (
            <li
              key={node.key}
              style={{ paddingLeft: `${depth * 1.1}rem` }}
              data-testid="legend-type"
              data-name={node.name}
              data-type-id={node.typeId ?? undefined}
            >
              <label className="d-flex align-items-center gap-1">
                <TriCheckbox node={node} hidden={hidden} onToggle={() => onToggle(node)} />
                {node.color && <span className="ws-label-swatch" style={{ background: node.color }} />}
                <span className="text-truncate">{node.name}</span>
                <span className="ms-auto text-body-secondary">{node.count}</span>
              </label>
            </li>
          ))}
        </ul>
      </div>
      <div className="ws-legend-section ws-legend-list-section">
        <div className="ws-legend-head">{t('workspace.legend.tags', { count: list.length })}</div>
        <input
          type="search"
          className="form-control form-control-sm mb-1"
          placeholder={t('workspace.legend.search')}
          aria-label={t('workspace.legend.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="tag-list-search"
        />
        <ul className="ws-legend-list" data-testid="tag-list" data-count={list.length}>
          {list.slice(0, limit).map((r) => (
            <li key={r.id}>
              <button
                type="button"
                className={`ws-legend-item${r.id === selectedId ? ' active' : ''}`}
                onClick={() => onSelect(r.id)}
                data-testid="tag-list-item"
                data-tag-id={r.id}
                title={`${r.typeName}: ${r.excerpt}`}
              >
                <span className="ws-label-swatch" style={{ background: r.color }} />
                <strong className="text-nowrap">{r.typeName}</strong>
                <span className="text-truncate">“{r.excerpt}”</span>
                <span className="ms-auto text-body-secondary text-nowrap">
                  {r.startOffset}–{r.endOffset}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {!list.length && <div className="text-body-secondary">{t('workspace.legend.noMatch')}</div>}
        {list.length > limit && (
          <button
            type="button"
            className="btn btn-sm btn-link p-0"
            onClick={() => setLimit((n) => n + PAGE)}
            data-testid="tag-list-more"
          >
            {t('workspace.legend.more', { count: Math.min(PAGE, list.length - limit) })}
          </button>
        )}
      </div>
    </aside>
  );
});
