/** Renders the toast store at the top right of the page. */
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, getToasts, subscribeToasts } from './toast';

export function ToastContainer() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <div className="toast-container position-fixed top-0 end-0 p-3 app-toasts" aria-live="polite">
      {toasts.map((item) => (
        <div
          key={item.id}
          className={`toast show align-items-center border-0 text-bg-${item.kind}`}
          role={item.kind === 'danger' ? 'alert' : 'status'}
          data-testid="toast"
          data-kind={item.kind}
        >
          <div className="d-flex">
            <div className="toast-body">{item.text}</div>
            <button
              type="button"
              className={`btn-close me-2 m-auto ${item.kind === 'warning' ? '' : 'btn-close-white'}`}
              aria-label={t('global.common.close')}
              onClick={() => dismissToast(item.id)}
            />
          </div>
        </div>
      ))}
    </div>
  );
}
