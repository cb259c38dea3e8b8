/**
 * The document text, read-only (CLASSIFYING mode, and LABELING until the tag API exists), with the hidden
 * characters marked when 'Show hidden tokens' is on.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { segmentHidden } from '../hiddenTokens';

export function ReadOnlyText({ text, showHidden }: { text: string; showHidden: boolean }) {
  const { t } = useTranslation();
  const segments = useMemo(() => (showHidden ? segmentHidden(text) : null), [text, showHidden]);
  if (!text) return <p className="text-body-secondary">{t('workspace.text.empty')}</p>;
  return (
    <div
      className="ws-text ws-read"
      data-testid="document-text"
      data-focus-text
      tabIndex={0}
      aria-label={t('workspace.text.label')}
      data-hidden-shown={showHidden}
    >
      {segments
        ? segments.map((s, i) =>
            s.mark ? (
              <span key={i} className="ws-hidden-token" data-mark={s.mark}>
                {s.text}
              </span>
            ) : (
              s.text
            ),
          )
        : text}
    </div>
  );
}
