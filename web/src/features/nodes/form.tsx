/**
 * The node panel's form state: the saved node, the draft being edited, which fields were touched, the
 * violations of domain/nodes.ts (client side) and the field errors the API returned; shared by the settings
 * components through a context so that each reads and patches only its own fields.
 */
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { Violation } from '@domain';
import type { NodeDTO } from '@domain/graph-types';
import { applyCouplings, nodeRules, type NodeContext } from '@domain/nodes';
import type { FieldViolation } from '@domain/node-settings-rules';
import { isHttpError } from '../../api/client';

export interface NodeForm {
  /** The node as last loaded or saved. */
  node: NodeDTO;
  draft: NodeDTO;
  readOnly: boolean;
  dirty: boolean;
  /**
   * Replaces fields of the draft (the checkbox couplings of domain/nodes.ts are applied afterwards) and marks
   * them touched, so that their messages show; `touched` names the paths to mark instead (e.g. only
   * `mailReceivers[2].email` when that e-mail was typed, nothing when an empty row was added).
   */
  patch: (fields: Partial<NodeDTO>, touched?: readonly string[]) => void;
  /** The message to show under a field (server errors at once, client ones once touched or submitted). */
  error: (field: string) => Violation | null;
  /** Violations of the draft (client side), all fields. */
  violations: readonly FieldViolation[];
}

const FormContext = createContext<NodeForm | null>(null);

export const NodeFormProvider = FormContext.Provider;

export function useNodeForm(): NodeForm {
  const form = useContext(FormContext);
  if (!form) throw new Error('useNodeForm outside a NodeFormProvider');
  return form;
}

/** The top-level field of a path such as `mailReceivers[0].email` or `externalConfig.restApiUrl`. */
const rootOf = (field: string) => field.split(/[.[]/)[0];

/** Field errors of a failed PUT (400 with fieldErrors), else null. */
export function serverFieldErrors(error: unknown): FieldViolation[] | null {
  if (!isHttpError(error) || error.status !== 400 || error.headers.get('x-soaapp-error')) return null;
  const body = error.body as { fieldErrors?: { field: string; message: string; key?: string }[] } | null;
  if (!body?.fieldErrors?.length) return null;
  return body.fieldErrors.map((fe) => ({
    field: fe.field,
    violation: {
      code: fe.message as Violation['code'],
      key: fe.key ?? `error.${fe.message}`,
    },
  }));
}

export interface NodeFormState extends NodeForm {
  submitted: boolean;
  setSubmitted: (v: boolean) => void;
  setServerErrors: (errors: FieldViolation[]) => void;
  /** Starts over from a saved node. */
  reset: (node: NodeDTO) => void;
  /** The stored node changed elsewhere while nothing was edited here: take it over. */
  sync: (node: NodeDTO) => void;
  /** A save of some fields only (name, tagging types): the draft takes those, other edits stay. */
  markSaved: (node: NodeDTO, fields: readonly (keyof NodeDTO)[]) => void;
  /** Bumped by reset, to re-create components holding local copies of the draft. */
  version: number;
}

export function useNodeFormState(node: NodeDTO, readOnly: boolean, ctx: NodeContext): NodeFormState {
  const [saved, setSaved] = useState(node);
  const [draft, setDraft] = useState(node);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldViolation[]>([]);
  const [version, setVersion] = useState(0);

  const patch = useCallback((fields: Partial<NodeDTO>, touchedPaths?: readonly string[]) => {
    const keys = Object.keys(fields);
    const marked = touchedPaths ?? keys;
    setDraft((d) => applyCouplings({ ...d, ...fields }));
    setTouched((tc) => (marked.every((k) => tc.has(k)) ? tc : new Set([...tc, ...marked])));
    setServerErrors((errs) => errs.filter((e) => !keys.includes(rootOf(e.field))));
  }, []);

  const reset = useCallback((next: NodeDTO) => {
    setSaved(next);
    setDraft(next);
    setTouched(new Set());
    setSubmitted(false);
    setServerErrors([]);
    setVersion((v) => v + 1);
  }, []);

  const sync = useCallback((next: NodeDTO) => {
    setSaved(next);
    setDraft(next);
  }, []);

  const markSaved = useCallback((next: NodeDTO, fields: readonly (keyof NodeDTO)[]) => {
    setSaved(next);
    setDraft((d) => ({ ...d, ...Object.fromEntries(fields.map((f) => [f, next[f]])) }));
    setServerErrors((errs) => errs.filter((e) => !fields.includes(rootOf(e.field) as keyof NodeDTO)));
  }, []);

  const violations = useMemo(() => nodeRules(draft, ctx), [draft, ctx]);

  const error = useCallback(
    (field: string): Violation | null => {
      const server = serverErrors.find((e) => e.field === field);
      if (server) return server.violation;
      if (!submitted && !touched.has(rootOf(field)) && !touched.has(field)) return null;
      return violations.find((v) => v.field === field)?.violation ?? null;
    },
    [serverErrors, submitted, touched, violations],
  );

  const dirty = useMemo(() => JSON.stringify(saved) !== JSON.stringify(draft), [saved, draft]);

  return {
    node: saved,
    draft,
    readOnly,
    dirty,
    patch,
    error,
    violations,
    submitted,
    setSubmitted,
    setServerErrors,
    reset,
    sync,
    markSaved,
    version,
  };
}
