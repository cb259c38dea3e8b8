/**
 * Opens the issues panel when asked: by `?tool=issues` (and `&issue={id}`) on the workspace address (the
 * issues dashboard's go-to-document link), and by a newly raised issue (issueFocus.show).
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { issueFocus, useIssuePanelRequests } from '../issueFocus';

export function useIssuesTool(setTool: (tool: 'issues') => void) {
  const [params] = useSearchParams();
  const requests = useIssuePanelRequests();
  const seen = useRef(requests);
  const fromUrl = params.get('tool') === 'issues' ? (params.get('issue') ?? '') : null;

  useEffect(() => {
    if (fromUrl === null) return;
    setTool('issues');
    const id = Number(fromUrl);
    issueFocus.open(fromUrl !== '' && Number.isSafeInteger(id) && id > 0 ? id : null);
    // once per address
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fromUrl]);

  useEffect(() => {
    if (requests === seen.current) return;
    seen.current = requests;
    setTool('issues');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requests]);
}
