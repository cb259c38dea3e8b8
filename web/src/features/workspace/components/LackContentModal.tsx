/** The 'Lack document content' modal (spec 2 section 2): the content update failed; a link to the home page. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Modal } from '../../../components/Modal';

export function LackContentModal({ message, onClose }: { message: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('workspace.lackContent.title')}
      onClose={onClose}
      testId="lack-content-modal"
      headerClassName="text-danger"
    >
      <p>{t('workspace.lackContent.body')}</p>
      {message && <p className="small text-body-secondary">{message}</p>}
      <Link to="/home" className="btn btn-primary">
        {t('workspace.lackContent.home')}
      </Link>
    </Modal>
  );
}
