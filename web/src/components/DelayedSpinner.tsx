/** A spinner with a label, shown only once loading has taken longer than the spinner delay (300 ms). */
import { useEffect, useState } from 'react';
import { SPINNER_DELAY_MS } from '../config';

export function DelayedSpinner({ label, testId }: { label: string; testId?: string }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(true), SPINNER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <div className="delayed-spinner" data-testid={testId} data-visible={visible} aria-busy="true">
      {visible && (
        <>
          <span className="spinner-border spinner-border-sm text-primary" aria-hidden="true" />
          <span className="text-body-secondary">{label}</span>
        </>
      )}
    </div>
  );
}
