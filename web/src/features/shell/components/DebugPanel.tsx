/**
 * The debug panel (spec 1 section 9: shortcuts ctrl-h and ctrl-q), for signed-in users outside the prod
 * profile: Ctrl+H shows or hides it, Ctrl+Q moves it round the window's edges (bottom, left, top, right), as
 * the original's dock monitor did. It shows what helps when something looks wrong: the route, the user and
 * roles, the language, the active profiles and every query of the client cache with its status and age.
 * Visibility and place last for the browser session.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useSession } from '../../account/session';
import { managementQueries, profileFlags } from '../api';
import { useSessionState } from '../../workspace/hooks/useSessionState';

const POSITIONS = ['bottom', 'left', 'top', 'right'] as const;
type Position = (typeof POSITIONS)[number];

export function DebugPanel() {
  const { t, i18n } = useTranslation();
  const { principal, account } = useSession();
  const { data: info } = useQuery(managementQueries.info(account?.login));
  const flags = profileFlags(info);
  const location = useLocation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useSessionState('debug.open', false);
  const [position, setPosition] = useSessionState<Position>('debug.position', 'bottom');
  const [, setTick] = useState(0);
  const enabled = !!account && !flags.isProd;

  const setters = useRef({ setOpen, setPosition });
  setters.current = { setOpen, setPosition };
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const { setOpen, setPosition } = setters.current;
      if (!e.ctrlKey || e.altKey || e.metaKey || e.shiftKey) return;
      const key = e.key.toLowerCase();
      if (key === 'h') {
        e.preventDefault();
        setOpen((o) => !o);
      } else if (key === 'q') {
        e.preventDefault();
        setPosition((p) => POSITIONS[(POSITIONS.indexOf(p) + 1) % POSITIONS.length]);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);

  // Redrawn when the cache changes, at most once a frame.
  useEffect(() => {
    if (!enabled || !open) return;
    let frame = 0;
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setTick((n) => n + 1);
      });
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [enabled, open, queryClient]);

  if (!enabled || !open) return null;
  const queries = queryClient.getQueryCache().getAll();
  const now = Date.now();
  return (
    <aside
      className={`debug-panel debug-panel-${position}`}
      aria-label={t('shell.debugPanel.title')}
      data-position={position}
    >
      <div className="d-flex align-items-center gap-2 mb-2">
        <h2 className="h6 mb-0">{t('shell.debugPanel.title')}</h2>
        <span className="small opacity-75">{t('shell.debugPanel.hint')}</span>
        <button
          type="button"
          className="btn btn-sm btn-outline-light ms-auto"
          onClick={() => setPosition(POSITIONS[(POSITIONS.indexOf(position) + 1) % POSITIONS.length])}
        >
          {t('shell.debugPanel.move')}
        </button>
        <button type="button" className="btn btn-sm btn-outline-light" onClick={() => setOpen(false)}>
          {t('shell.debugPanel.close')}
        </button>
      </div>
      <dl className="debug-facts small mb-2">
        <dt>{t('shell.debugPanel.route')}</dt>
        <dd>{location.pathname + location.search}</dd>
        <dt>{t('shell.debugPanel.user')}</dt>
        <dd>{account?.login}</dd>
        <dt>{t('shell.debugPanel.roles')}</dt>
        <dd>{(principal?.roles ?? []).join(', ')}</dd>
        <dt>{t('shell.debugPanel.locale')}</dt>
        <dd>{i18n.language}</dd>
        <dt>{t('shell.debugPanel.profiles')}</dt>
        <dd>{(info?.activeProfiles ?? []).join(', ')}</dd>
      </dl>
      <table className="table table-sm table-dark small mb-0">
        <caption className="caption-top text-light">
          {t('shell.debugPanel.queries', { count: queries.length })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('shell.debugPanel.key')}</th>
            <th scope="col">{t('shell.debugPanel.status')}</th>
            <th scope="col">{t('shell.debugPanel.updated')}</th>
          </tr>
        </thead>
        <tbody>
          {queries.slice(0, 200).map((q) => (
            <tr key={q.queryHash}>
              <td className="text-break">{q.queryHash}</td>
              <td>
                {q.state.status}
                {q.state.fetchStatus === 'fetching' ? ' …' : ''}
              </td>
              <td>{q.state.dataUpdatedAt ? `${Math.round((now - q.state.dataUpdatedAt) / 1000)} s` : '-'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}
