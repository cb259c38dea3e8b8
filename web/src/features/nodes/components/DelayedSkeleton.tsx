/** Skeleton lines shown only once loading has taken longer than the spinner delay (300 ms). */
import { useEffect, useState } from 'react';
import { SPINNER_DELAY_MS } from '../../../config';

export function DelayedSkeleton({ lines = 6 }: { lines?: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(true), SPINNER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div className="placeholder-glow p-3" data-testid="node-panel-skeleton" aria-busy="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className={`placeholder col-${[12, 8, 10, 6, 11, 7][i % 6]} d-block mb-3`} />
      ))}
    </div>
  );
}
