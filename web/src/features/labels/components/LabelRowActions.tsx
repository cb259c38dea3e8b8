/** The edit and delete icons of a label, rule group or relation row (hidden when read-only). */
import { useTranslation } from 'react-i18next';
import { IconPencil, IconTrash } from '../../../components/icons';

export interface LabelRowActionsProps {
  onEdit?: () => void;
  onDelete?: () => void;
  testIdPrefix: string;
}

export function LabelRowActions({ onEdit, onDelete, testIdPrefix }: LabelRowActionsProps) {
  const { t } = useTranslation();
  return (
    <span className="labels-row-actions">
      {onEdit && (
        <button
          type="button"
          className="btn btn-sm btn-link labels-icon-btn"
          title={t('global.common.edit')}
          aria-label={t('global.common.edit')}
          onClick={onEdit}
          data-testid={`${testIdPrefix}-edit`}
        >
          <IconPencil size={14} />
        </button>
      )}
      {onDelete && (
        <button
          type="button"
          className="btn btn-sm btn-link labels-icon-btn danger"
          title={t('global.common.delete')}
          aria-label={t('global.common.delete')}
          onClick={onDelete}
          data-testid={`${testIdPrefix}-delete`}
        >
          <IconTrash size={14} />
        </button>
      )}
    </span>
  );
}
