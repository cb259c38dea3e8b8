/** The completion modal of a labels import: counts of saved and skipped (duplicated) labels and rules. */
import { useTranslation } from 'react-i18next';
import type { ImportResult } from '@domain/label-types';
import { Modal } from '../../../components/Modal';

export function ImportResultModal({ result, onClose }: { result: ImportResult; onClose: () => void }) {
  const { t } = useTranslation();
  const lines = [
    { key: 'labelsSaved', count: result.savedTagTypes.length, warning: false },
    { key: 'rulesSaved', count: result.savedRules.length, warning: false },
    { key: 'labelsDuplicated', count: result.duplicatedTagTypes.length, warning: true },
    { key: 'rulesDuplicated', count: result.duplicatedRules.length, warning: true },
  ] as const;
  return (
    <Modal
      title={t('soaApp.labels.import.result.title')}
      onClose={onClose}
      testId="labels-import-result"
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="import-confirm">
          {t('soaApp.labels.import.result.confirm')}
        </button>
      }
    >
      <ul className="list-group">
        {lines.map((line) => (
          <li
            key={line.key}
            className={`list-group-item d-flex align-items-center gap-2 ${
              line.warning && line.count > 0 ? 'list-group-item-warning' : ''
            }`}
            data-testid={`import-result-${line.key}`}
          >
            <span className="me-auto">{t(`soaApp.labels.import.result.${line.key}`)}</span>
            <span className={`badge ${line.warning ? 'text-bg-warning' : 'text-bg-success'}`}>
              {line.count}
            </span>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
