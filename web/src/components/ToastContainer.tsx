/**
 * Renders the toast store at the bottom centre of the window, newest last: clear of the header's actions
 * (top right), a side panel's buttons (right) and the graph's controls (bottom left).
 */
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, getToasts, subscribeToasts } from './toast';

export function ToastContainer() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <div
      className="toast-container position-fixed bottom-0 start-50 translate-middle-x p-3 app-toasts"
      aria-live="polite"
    >
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
