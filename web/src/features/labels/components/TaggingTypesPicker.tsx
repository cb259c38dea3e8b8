/** The supported tagging types of a span node (token, timespan, text) as a multi-select with a Save button. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TaggingTypes, type TaggingType } from '@domain/graph-types';

export interface TaggingTypesPickerProps {
  value: readonly TaggingType[];
  readOnly: boolean;
  onSave?: (types: TaggingType[]) => unknown;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

export function TaggingTypesPicker({ value, readOnly, onSave }: TaggingTypesPickerProps) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<TaggingType[]>([...value]);
  const [saving, setSaving] = useState(false);
  const valueKey = [...value].sort().join(',');

  // The node was saved or reloaded: start from its value again.
  useEffect(() => {
    setSelected(valueKey ? (valueKey.split(',') as TaggingType[]) : []);
  }, [valueKey]);

  const toggle = (type: TaggingType) =>
    setSelected((s) => (s.includes(type) ? s.filter((x) => x !== type) : [...s, type]));

  const save = async () => {
    if (!onSave) return;
    setSaving(true);
    try {
      await onSave(TaggingTypes.filter((type) => selected.includes(type)));
    } catch {
      /* the HTTP client already reported the failure */
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="mb-3" data-testid="tagging-types">
      <div className="form-label mb-1">{t('soaApp.labels.taggingTypes.label')}</div>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <div
          className="btn-group btn-group-sm"
          role="group"
          aria-label={t('soaApp.labels.taggingTypes.label')}
        >
          {TaggingTypes.map((type) => {
            const on = selected.includes(type);
            return (
              <button
                key={type}
                type="button"
                className={`btn ${on ? 'btn-primary' : 'btn-outline-secondary'}`}
                aria-pressed={on}
                disabled={readOnly}
                onClick={() => toggle(type)}
                data-testid="tagging-type-option"
                data-value={type}
              >
                {t(`soaApp.labels.taggingTypes.${type}`)}
              </button>
            );
          })}
        </div>
        {!readOnly && onSave && (
          <button
            type="button"
            className="btn btn-sm btn-outline-primary"
            disabled={saving || sameSet(selected, value)}
            onClick={() => void save()}
            data-testid="tagging-types-save"
          >
            {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {t('global.common.save')}
          </button>
        )}
      </div>
    </div>
  );
}
