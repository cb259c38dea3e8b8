/**
 * The editing menu of the selected tokens (spec 2 section 2): views for the options, the time range of one
 * token, the deletion approval ('Are you sure you want to delete selected words?' with Delete and Cancel, for
 * more than one word) and the unclear mark with the token properties (DOUBLE_SPEECH, INAUDIBLE, NOISE). The
 * options: suggestions and inline edit (one token), edit time range (one token; disabled while the source
 * download is blocked), extract tokens (disabled at the utterance edge), delete (disabled while the document
 * has relation graphs) and 'Problem with selection' (the issue form, for process writers). Each opening
 * starts at the options view.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TOKEN_PROPERTIES, type TokenDTO, type TokenProperty } from '../transcriptApi';
import { PopupMenu } from './PopupMenu';

type View = 'options' | 'time' | 'delete' | 'unclear';

export interface EditingMenuProps {
  x: number;
  y: number;
  tokens: TokenDTO[];
  canWrite: boolean;
  downloadBlocked: boolean;
  canExtract: boolean;
  hasGraphs: boolean;
  canReportIssue: boolean;
  /** The time range editor of one token (the player's TimestampInput), shown in the time view. */
  renderTimeRange: (token: TokenDTO, done: () => void) => ReactNode;
  onHints: () => void;
  onEdit: () => void;
  onExtract: () => void;
  onDelete: () => void;
  onUnclear: (unclear: boolean) => void;
  onProperty: (p: TokenProperty) => void;
  onReportIssue: () => void;
  onClose: () => void;
}

export function EditingMenu(p: EditingMenuProps) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>('options');
  const one = p.tokens.length === 1 ? p.tokens[0] : null;
  const allUnclear = p.tokens.length > 0 && p.tokens.every((x) => x.unclear);
  const item = (testId: string, label: string, onClick: () => void, disabled = false, title?: string) => (
    <button
      type="button"
      className="dropdown-item"
      disabled={disabled}
      title={title}
      onClick={onClick}
      data-testid={testId}
    >
      {label}
    </button>
  );
  const back = (
    <button type="button" className="btn btn-sm btn-link px-2" onClick={() => setView('options')}>
      ← {t('speech.menu.back')}
    </button>
  );
  let body: ReactNode;
  if (view === 'delete') {
    body = (
      <div className="px-2 py-1" data-testid="delete-approval">
        <p className="small mb-2">{t('speech.menu.deleteConfirm')}</p>
        <div className="d-flex gap-1 justify-content-end">
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setView('options')}
          >
            {t('speech.menu.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-danger"
            onClick={p.onDelete}
            data-testid="delete-confirm"
          >
            {t('speech.menu.delete')}
          </button>
        </div>
      </div>
    );
  } else if (view === 'time' && one) {
    body = (
      <>
        {back}
        {p.renderTimeRange(one, p.onClose)}
      </>
    );
  } else if (view === 'unclear') {
    body = (
      <>
        {back}
        {item(
          'menu-unclear-toggle',
          t(allUnclear ? 'speech.menu.unmarkUnclear' : 'speech.menu.markUnclear'),
          () => p.onUnclear(!allUnclear),
        )}
        <div className="dropdown-divider" />
        <div className="small text-body-secondary px-2">{t('speech.menu.properties')}</div>
        {TOKEN_PROPERTIES.map((prop) => {
          const on = p.tokens.every((x) => x.properties.includes(prop));
          return (
            <button
              key={prop}
              type="button"
              className={`dropdown-item${on ? ' active' : ''}`}
              aria-pressed={on}
              onClick={() => p.onProperty(prop)}
              data-testid={`menu-property-${prop}`}
            >
              {on ? '✓ ' : ''}
              {t(`speech.property.${prop}`)}
            </button>
          );
        })}
      </>
    );
  } else {
    body = (
      <>
        {item('menu-hints', t('speech.hints.title'), p.onHints, !one || !p.canWrite)}
        {item('menu-edit', t('speech.menu.edit'), p.onEdit, !one || !p.canWrite)}
        {item(
          'menu-time',
          t('speech.menu.editTime'),
          () => setView('time'),
          !one || !p.canWrite || p.downloadBlocked,
          p.downloadBlocked ? t('speech.player.blocked') : undefined,
        )}
        {item('menu-extract', t('speech.menu.extract'), p.onExtract, !p.canWrite || !p.canExtract)}
        {item(
          'menu-delete',
          t('speech.menu.deleteTokens'),
          () => (p.tokens.length > 1 ? setView('delete') : p.onDelete()),
          !p.canWrite || p.hasGraphs || p.tokens.length === 0,
          p.hasGraphs ? t('speech.menu.graphsExist') : undefined,
        )}
        {item('menu-unclear', t('speech.menu.unclear'), () => setView('unclear'), !p.canWrite)}
        {p.canReportIssue && (
          <>
            <div className="dropdown-divider" />
            {item('menu-issue', t('speech.menu.issue'), p.onReportIssue, p.tokens.length === 0)}
          </>
        )}
      </>
    );
  }
  return (
    <PopupMenu x={p.x} y={p.y} title={t('speech.menu.title')} testId="editing-menu" onClose={p.onClose}>
      {body}
    </PopupMenu>
  );
}
