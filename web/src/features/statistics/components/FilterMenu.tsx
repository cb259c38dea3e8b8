/**
 * A filter of users or nodes: a menu of checkboxes that stays open while ticking; none ticked means all.
 */
import { useTranslation } from 'react-i18next';
import { Dropdown } from '../../../components/Dropdown';
import { toggleId } from '../figures';

export interface FilterOption {
  id: number;
  name: string;
}

export function FilterMenu({
  label,
  allLabel,
  options,
  selected,
  onChange,
  testId,
}: {
  label: string;
  /** the label's value when nothing is ticked */
  allLabel: string;
  options: readonly FilterOption[];
  selected: readonly number[];
  onChange: (ids: number[]) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const chosen = selected.filter((id) => options.some((o) => o.id === id));
  return (
    <Dropdown
      nav={false}
      testId={testId}
      toggleClassName={`btn btn-sm dropdown-toggle ${chosen.length ? 'btn-primary' : 'btn-outline-secondary'}`}
      label={
        <>
          {label}: {chosen.length ? t('statistics.filters.chosen', { count: chosen.length }) : allLabel}
        </>
      }
    >
      {/* Ticking keeps the menu open (the dropdown closes on a click that reaches its list). */}
      <li className="statistics-filter-options" onClick={(e) => e.stopPropagation()}>
        <button
          type="button"
          className="dropdown-item small text-primary"
          disabled={!chosen.length}
          onClick={() => onChange([])}
          data-testid={`${testId}-all`}
        >
          {t('statistics.filters.clear')}
        </button>
        {options.map((o) => (
          <label key={o.id} className="dropdown-item d-flex align-items-center gap-2 mb-0">
            <input
              type="checkbox"
              className="form-check-input mt-0"
              checked={chosen.includes(o.id)}
              onChange={() => onChange(toggleId(chosen, o.id))}
              data-testid={`${testId}-option`}
              data-id={o.id}
            />
            <span className="text-truncate">{o.name}</span>
          </label>
        ))}
      </li>
    </Dropdown>
  );
}
