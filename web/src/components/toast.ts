/**
 * The toast store: a tiny external store (no React context) so that the HTTP client hooks, which live
 * outside React, can push messages. Toasts close themselves after 3000 ms; at most MAX_TOASTS show at once
 * (a new one pushes the oldest out).
 */
import { TOAST_TIMEOUT_MS } from '../config';

export type ToastKind = 'success' | 'danger' | 'warning' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

type Listener = () => void;

export const MAX_TOASTS = 3;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l();
}

export function dismissToast(id: number): void {
  const next = toasts.filter((t) => t.id !== id);
  if (next.length !== toasts.length) {
    toasts = next;
    emit();
  }
}

export function showToast(kind: ToastKind, text: string, timeoutMs = TOAST_TIMEOUT_MS): number {
  const id = nextId++;
  // The same text twice in a row (e.g. one failure reported by two parallel calls) is shown once.
  if (toasts.some((t) => t.text === text && t.kind === kind)) return id;
  toasts = [...toasts, { id, kind, text }].slice(-MAX_TOASTS);
  emit();
  window.setTimeout(() => dismissToast(id), timeoutMs);
  return id;
}

export const toast = {
  success: (text: string) => showToast('success', text),
  error: (text: string) => showToast('danger', text),
  warning: (text: string) => showToast('warning', text),
  info: (text: string) => showToast('info', text),
};

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}
