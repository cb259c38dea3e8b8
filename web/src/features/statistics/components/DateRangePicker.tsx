/**
 * The statistics date range (spec 3 "Statistics screen"): the presets menu and the two days typed as
 * dd.MM.yyyy; a range that cannot be asked for shows why under the fields (../range.ts rangeError).
 */
import { useTranslation } from 'react-i18next';
import { STATISTICS_MAX_DAYS } from '@domain/statistics-types';
import { Dropdown } from '../../../components/Dropdown';
import { IconClock } from '../../../components/icons';
import { formatDay, presetOf, presetRange, RANGE_PRESETS, type Day, type RangeError } from '../range';

export interface TypedRange {
  from: string;
  to: string;
}

export function DateRangePicker({
  value,
  onChange,
  today,
  range,
  error,
}: {
  value: TypedRange;
  onChange: (value: TypedRange) => void;
  today: Day;
  /** the parsed range, when both days are real dates */
  range: { from: Day; to: Day } | null;
  error: RangeError | null;
}) {
  const { t } = useTranslation();
  const preset = range && !error ? presetOf(range, today) : null;
  const invalid = (field: 'from' | 'to') =>
    error === 'tooLong' || error === 'order' || error === (field === 'from' ? 'invalidFrom' : 'invalidTo');
  const input = (field: 'from' | 'to') => (
    <input
      type="text"
      inputMode="numeric"
      className={`form-control form-control-sm statistics-day ${invalid(field) ? 'is-invalid' : ''}`}
      placeholder={t('statistics.range.placeholder')}
      aria-label={t(`statistics.range.${field}`)}
      value={value[field]}
      onChange={(e) => onChange({ ...value, [field]: e.target.value })}
      data-testid={`statistics-${field}`}
    />
  );
  return (
    <div className="statistics-range" data-testid="statistics-range" data-preset={preset ?? ''}>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Dropdown
          nav={false}
          align="end"
          testId="statistics-presets"
          toggleClassName="btn btn-sm btn-outline-secondary dropdown-toggle"
          label={
            <>
              <IconClock className="me-1" />
              {preset ? t(`statistics.range.presets.${preset}`) : t('statistics.range.custom')}
            </>
          }
        >
          {RANGE_PRESETS.map((p) => {
            const r = presetRange(p, today);
            return (
              <li key={p}>
                <button
                  type="button"
                  className={`dropdown-item d-flex justify-content-between gap-3 ${p === preset ? 'active' : ''}`}
                  onClick={() => onChange({ from: formatDay(r.from), to: formatDay(r.to) })}
                  data-testid={`statistics-preset-${p}`}
                >
                  <span>{t(`statistics.range.presets.${p}`)}</span>
                  <span className={`small ${p === preset ? '' : 'text-body-secondary'}`}>
                    {r.from === r.to ? formatDay(r.from) : `${formatDay(r.from)} – ${formatDay(r.to)}`}
                  </span>
                </button>
              </li>
            );
          })}
        </Dropdown>
        <div className="input-group input-group-sm statistics-days">
          {input('from')}
          <span className="input-group-text">–</span>
          {input('to')}
        </div>
      </div>
      {error && (
        <div className="invalid-feedback d-block text-end" role="alert" data-testid="statistics-range-error">
          {t(`statistics.range.errors.${error}`, { max: STATISTICS_MAX_DAYS })}
        </div>
      )}
    </div>
  );
}
