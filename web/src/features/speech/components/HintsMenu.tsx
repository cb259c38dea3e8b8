/**
 * The hints menu 'Suggestions' (spec 2 section 2): the selected token's alternatives (GET
 * api/documents/{id}/top/hints?utteranceTokenId) as domain/transcript-edit.ts hintSuggestions makes them
 * (the current value left out case-insensitively, the word's punctuation kept, capitalised after ? or .);
 * the spinner after 300 ms; picking one replaces the token's value. It opens below the word, not over it.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hintSuggestions } from '@domain/transcript-edit';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import type { Anchor } from '../../../components/floatingMenu';
import { transcriptQueries, type TokenDTO } from '../transcriptApi';
import { PopupMenu } from './PopupMenu';

export function HintsMenu({
  x,
  y,
  anchor,
  documentId,
  token,
  previous,
  onPick,
  onClose,
}: {
  x: number;
  y: number;
  /** the token's word on screen: the menu opens below it (above without room), never over it */
  anchor?: Anchor;
  documentId: number;
  token: TokenDTO;
  previous: TokenDTO | null;
  onPick: (value: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const hints = useQuery(transcriptQueries.hints(documentId, token.id));
  const suggestions = hints.data
    ? hintSuggestions(
        hints.data.map((h) => h.value),
        token,
        previous,
      )
    : [];
  return (
    <PopupMenu
      x={x}
      y={y}
      anchor={anchor}
      title={t('speech.hints.title')}
      testId="hints-menu"
      onClose={onClose}
    >
      {hints.isPending ? (
        <DelayedSpinner label={t('workspace.loading')} testId="hints-loading" />
      ) : suggestions.length === 0 ? (
        <div className="small text-body-secondary px-2 py-1" data-testid="hints-empty">
          {t('speech.hints.none')}
        </div>
      ) : (
        suggestions.map((s) => (
          <button
            key={s}
            type="button"
            className="dropdown-item"
            onClick={() => onPick(s)}
            data-testid="hint"
          >
            {s}
          </button>
        ))
      )}
    </PopupMenu>
  );
}
