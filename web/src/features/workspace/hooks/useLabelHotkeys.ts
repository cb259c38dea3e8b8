/**
 * Label hotkeys (spec 3 section 3, issue 30; the rules in domain/label-shortcuts.ts): the labels of the
 * selected step's node with their keys, and a listener that applies one when its prefix key and suffix key
 * (or the suffix key alone) are typed. The listener runs in the capture phase on the window and stops a key
 * it takes, so the views' own single-letter shortcuts (l, h, p, e) never see the second key of a sequence.
 * Keys are ignored while typing in a field, with a modifier, while `enabled` is false, and Escape drops a
 * started sequence.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { acceptsClassifierTypes, acceptsNerTagTypes } from '@domain/labels';
import { nextShortcutStep, shortcutConflicts, shortcutSequence } from '@domain/label-shortcuts';
import { tagQueries } from '../tagsApi';
import { typing } from '../typing';

export interface HotkeyLabel {
  id: number;
  name: string;
  prefixKey: string | null;
  suffixKey: string | null;
  backgroundColor: string;
  /** A path for a NER tag type (its place in the tree), the name for a classifier type. */
  path: string;
  /** False for a NER tag type that cannot be chosen (not selectable or disabled). */
  usable: boolean;
}

export interface StepLabels {
  kind: 'NER' | 'CLASSIFIER' | null;
  /** Labels with a suffix key, in the node's order. */
  labels: HotkeyLabel[];
  /** Ids of labels whose keys clash (never applied; marked in the legend). */
  conflicts: ReadonlySet<number>;
}

/** The keyed labels of a node of the given activity type (null node: none). */
export function useStepLabels(nodeId: number | null, activityType: string | null): StepLabels {
  const kind =
    nodeId === null || !activityType
      ? null
      : acceptsClassifierTypes(activityType)
        ? 'CLASSIFIER'
        : acceptsNerTagTypes(activityType)
          ? 'NER'
          : null;
  const clf = useQuery({ ...tagQueries.classifierTypes(nodeId ?? 0), enabled: kind === 'CLASSIFIER' });
  const ner = useQuery({ ...tagQueries.nodeTagTypes(nodeId ?? 0), enabled: kind === 'NER' });
  return useMemo(() => {
    const all: HotkeyLabel[] =
      kind === 'CLASSIFIER'
        ? (clf.data ?? []).map((c) => ({ ...c, path: c.name, usable: true }))
        : kind === 'NER'
          ? (ner.data ?? []).map((n) => ({ ...n, path: n.path, usable: n.selectable && !n.disabled }))
          : [];
    const labels = all.filter((l) => shortcutSequence(l).length > 0);
    return { kind, labels, conflicts: new Set(shortcutConflicts(labels).keys()) };
  }, [kind, clf.data, ner.data]);
}

/** Applies a label when its keys are typed; answers the keys typed so far of a started sequence. */
export function useLabelHotkeys(
  labels: readonly HotkeyLabel[],
  enabled: boolean,
  apply: (label: HotkeyLabel) => void,
): string[] {
  const [pending, setPending] = useState<string[]>([]);
  const latest = useRef({ labels, apply, pending });
  latest.current = { labels, apply, pending };
  useEffect(() => {
    if (!enabled) {
      setPending([]);
      return;
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(window.document.activeElement)) return;
      const cur = latest.current;
      if (e.key === 'Escape' && cur.pending.length) {
        setPending([]);
        return;
      }
      if (!/^[a-z]$/.test(e.key)) return;
      const usable = cur.labels.filter((l) => l.usable);
      const step = nextShortcutStep(usable, cur.pending, e.key);
      if (step.kind === 'none') {
        if (cur.pending.length) setPending([]);
        return;
      }
      e.preventDefault();
      e.stopImmediatePropagation();
      if (step.kind === 'pending') setPending(step.keys);
      else {
        setPending([]);
        cur.apply(step.label);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled]);
  return pending;
}
