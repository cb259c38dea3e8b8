/**
 * The labelling menu's entry 'Problem z oznaczeniem' (spec 2 section 2): disabled, with the tooltip
 * 'Zaznacz tekst aby zgłosić problem', when nothing is selected; replaced by 'Zapisz zmiany aby dodać nowe
 * zgłoszenie' while a relation candidate is unsaved (`unsaved`).
 */
import { useTranslation } from 'react-i18next';
import { IconComment } from '../../../components/icons';

export function ReportIssueEntry({
  selected,
  unsaved = false,
  onReport,
}: {
  selected: boolean;
  unsaved?: boolean;
  onReport: () => void;
}) {
  const { t } = useTranslation();
  if (unsaved)
    return (
      <div
        className="ws-label-menu-issue small text-body-secondary px-1"
        data-testid="label-menu-issue-unsaved"
      >
        <IconComment /> {t('workspace.issues.saveFirst')}
      </div>
    );
  return (
    <div
      className="ws-label-menu-issue"
      title={selected ? undefined : t('workspace.issues.selectFirst')}
      data-testid="label-menu-issue-wrap"
    >
      <button
        type="button"
        className="btn btn-sm btn-link text-body-secondary px-1"
        disabled={!selected}
        onMouseDown={(e) => e.preventDefault()}
        onClick={onReport}
        data-testid="label-menu-issue"
      >
        <IconComment /> {t('workspace.issues.report')}
      </button>
    </div>
  );
}
