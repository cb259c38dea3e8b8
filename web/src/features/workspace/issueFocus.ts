/**
 * Which issue the workspace has open, shared by the labelling view (which raises issues), the issues panel
 * (which lists them) and the text workspace (which opens the panel): a tiny external store, so that none of
 * them has to thread it through the others' props.
 */
import { useSyncExternalStore } from 'react';

type Listener = () => void;

let openIssueId: number | null = null;
/** Bumped by each request to show the issues panel. */
let showRequests = 0;
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((l) => l());

const subscribe = (l: Listener) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const issueFocus = {
  /** Opens an issue in the panel (null: back to the list). */
  open(id: number | null) {
    if (openIssueId === id) return;
    openIssueId = id;
    emit();
  },
  /** Opens the issues panel on an issue. */
  show(id: number) {
    openIssueId = id;
    showRequests += 1;
    emit();
  },
};

export const useOpenIssueId = () => useSyncExternalStore(subscribe, () => openIssueId);
export const useIssuePanelRequests = () => useSyncExternalStore(subscribe, () => showRequests);
