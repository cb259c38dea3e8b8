/**
 * Minimal form state: values, which fields were changed, and whether a submit was attempted. Validation
 * itself is done by the caller with the domain rules. Messages show once a field was changed (not on blur:
 * a message appearing on blur moves the page under the pointer and swallows the click that caused it).
 */
import { useCallback, useState } from 'react';

export function useForm<T extends Record<string, string | boolean>>(initial: T | (() => T)) {
  const [values, setValues] = useState<T>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof T, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const set = useCallback(<K extends keyof T>(name: K, value: T[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setTouched((tc) => (tc[name] ? tc : { ...tc, [name]: true }));
  }, []);

  const touch = useCallback((name: keyof T) => {
    setTouched((tc) => (tc[name] ? tc : { ...tc, [name]: true }));
  }, []);

  /** Props for a text input bound to a string field. */
  const text = (name: keyof T & string) => ({
    id: name,
    name,
    value: String(values[name] ?? ''),
    onChange: (e: { target: { value: string } }) => set(name, e.target.value as T[typeof name]),
  });

  const show = (name: keyof T) => submitted || !!touched[name];

  /** Starts over (e.g. after a successful submit): these values, nothing changed, no submit attempted. */
  const reset = useCallback((next: T) => {
    setValues(next);
    setTouched({});
    setSubmitted(false);
  }, []);

  return { values, set, touch, text, show, submitted, setSubmitted, setValues, reset };
}
