/**
 * One key to the work (issue 30): the page's text (the workspaces mark it with `data-focus-text`: the labelled
 * text, the read-only text, the editing textarea, the transcript), else the page's main landmark, focused and
 * scrolled into view. The skip link (the page's first Tab stop) and the workspace's Alt+Shift+T call it.
 */
export function focusContent(): boolean {
  const target =
    window.document.querySelector<HTMLElement>('[data-focus-text]') ??
    window.document.querySelector<HTMLElement>('#app-main');
  if (!target) return false;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: 'nearest' });
  return true;
}
