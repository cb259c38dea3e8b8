/** Deep merge of translation objects (the per-feature files share top-level keys such as `soaApp`). */

export interface Messages {
  [key: string]: string | Messages;
}

const isObject = (v: unknown): v is Messages => typeof v === 'object' && v !== null && !Array.isArray(v);

export function deepMerge(target: Messages, source: Messages): Messages {
  const out: Messages = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const existing = out[key];
    out[key] = isObject(existing) && isObject(value) ? deepMerge(existing, value) : value;
  }
  return out;
}

/** Flattens a message tree into dotted keys. */
export function flattenKeys(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    isObject(value) ? flattenKeys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
