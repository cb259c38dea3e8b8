/** The prefix and suffix shortcut keys of a label: one letter a-z each (typed letters are lower-cased). */
import { useTranslation } from 'react-i18next';
import type { Violation } from '@domain';
import { ViolationMessage, inputClass } from '../../../components/FormField';

export interface ShortcutKeyInputsProps {
  idPrefix: string;
  prefixKey: string;
  suffixKey: string;
  onPrefixChange: (value: string) => void;
  onSuffixChange: (value: string) => void;
  prefixViolation: Violation | null;
  suffixViolation: Violation | null;
}

const lastLetter = (raw: string) => raw.slice(-1).toLowerCase();

export function ShortcutKeyInputs({
  idPrefix,
  prefixKey,
  suffixKey,
  onPrefixChange,
  onSuffixChange,
  prefixViolation,
  suffixViolation,
}: ShortcutKeyInputsProps) {
  const { t } = useTranslation();
  return (
    <div className="row g-3 mb-3">
      <div className="col-6">
        <label htmlFor={`${idPrefix}-prefix-key`} className="form-label">
          {t('soaApp.labels.common.prefixKey')}
        </label>
        <input
          id={`${idPrefix}-prefix-key`}
          className={inputClass(prefixViolation, true)}
          value={prefixKey}
          maxLength={2}
          autoComplete="off"
          placeholder="a-z"
          onChange={(e) => onPrefixChange(lastLetter(e.target.value))}
          data-testid={`${idPrefix}-prefix-key`}
        />
        {prefixViolation && <ViolationMessage violation={prefixViolation} />}
      </div>
      <div className="col-6">
        <label htmlFor={`${idPrefix}-suffix-key`} className="form-label">
          {t('soaApp.labels.common.suffixKey')}
        </label>
        <input
          id={`${idPrefix}-suffix-key`}
          className={inputClass(suffixViolation, true)}
          value={suffixKey}
          maxLength={2}
          autoComplete="off"
          placeholder="a-z"
          onChange={(e) => onSuffixChange(lastLetter(e.target.value))}
          data-testid={`${idPrefix}-suffix-key`}
        />
        {suffixViolation && <ViolationMessage violation={suffixViolation} />}
      </div>
      <div className="col-12 form-text mt-1">{t('soaApp.labels.common.keysHelp')}</div>
    </div>
  );
}
