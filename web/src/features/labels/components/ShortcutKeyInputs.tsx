/** The prefix and suffix shortcut keys of a label: one letter a-z each (typed letters are lower-cased). */
import { useTranslation } from 'react-i18next';
import type { Violation } from '@domain';
import { inputClass } from '../../../components/FormField';
import { LabelField } from './LabelFields';

export type ShortcutKey = 'prefixKey' | 'suffixKey';

export interface ShortcutKeyInputsProps {
  idPrefix: string;
  values: Record<ShortcutKey, string>;
  onChange: (key: ShortcutKey, value: string) => void;
  /** The message of a key, when it is to show. */
  violation: (key: ShortcutKey) => Violation | null;
}

const KEYS = [
  { key: 'prefixKey', id: 'prefix-key', label: 'soaApp.labels.common.prefixKey' },
  { key: 'suffixKey', id: 'suffix-key', label: 'soaApp.labels.common.suffixKey' },
] as const;

const lastLetter = (raw: string) => raw.slice(-1).toLowerCase();

export function ShortcutKeyInputs({ idPrefix, values, onChange, violation }: ShortcutKeyInputsProps) {
  const { t } = useTranslation();
  return (
    <div className="row g-3 mb-3">
      {KEYS.map(({ key, id, label }) => (
        <LabelField
          key={key}
          id={`${idPrefix}-${id}`}
          label={t(label)}
          violation={violation(key)}
          className="col-6"
        >
          <input
            id={`${idPrefix}-${id}`}
            className={inputClass(violation(key), true)}
            value={values[key]}
            maxLength={2}
            autoComplete="off"
            placeholder="a-z"
            onChange={(e) => onChange(key, lastLetter(e.target.value))}
            data-testid={`${idPrefix}-${id}`}
          />
        </LabelField>
      ))}
      <div className="col-12 form-text mt-1">{t('soaApp.labels.common.keysHelp')}</div>
    </div>
  );
}
