/**
 * The prompts external LLMs get and the answers of external models (pure: no I/O), for external-model.ts.
 * - CLF answers `{"labels": [...]}`; SPAN answers `{"spans": [{"label", "text"}]}` from an LLM (each text
 *   tagged at every occurrence, exact and case-sensitive, never cutting a word) or `{"spans": [{"label",
 *   "start", "end"}]}` from a custom model (UTF-16 offsets; outside the content is a bad answer).
 * - Labels are found by name, case-insensitively; custom models may also give ids. Unknown ones are ignored
 *   and listed. Duplicate spans are dropped; spans come out sorted.
 * - An LLM may wrap its JSON in a ``` fence or a sentence: the outermost {...} is tried too.
 */
import { z } from 'zod';
import type { ExternalConfig } from '../../domain/graph-types';
import type { ModelKind, ModelLabel, ModelText } from './model-io';

/** An answer that is not JSON or not of the expected shape: permanent, with its beginning for the user. */
export class BadAnswer extends Error {
  constructor(
    message: string,
    readonly raw: string,
  ) {
    super(message);
  }
}

/** Parses a model's JSON answer; an LLM may wrap it in a ``` fence or a sentence, so the outer {...} counts. */
export function parseJson(raw: string): unknown {
  const text = raw.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1');
  try {
    return JSON.parse(text);
  } catch {
    const from = text.indexOf('{');
    const to = text.lastIndexOf('}');
    if (from >= 0 && to > from) {
      try {
        return JSON.parse(text.slice(from, to + 1));
      } catch {
        // reported below
      }
    }
    throw new BadAnswer('The model did not answer with JSON', raw);
  }
}

const labelRef = z.union([z.string(), z.number().int()]);
const clfAnswer = z.object({ labels: z.array(labelRef) });
const textSpanAnswer = z.object({ spans: z.array(z.object({ label: labelRef, text: z.string() })) });
const offsetSpanAnswer = z.object({
  spans: z.array(z.object({ label: labelRef, start: z.number().int(), end: z.number().int() })),
});

function shaped<T>(schema: z.ZodType<T>, raw: string, expected: string): T {
  const parsed = schema.safeParse(parseJson(raw));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new BadAnswer(
    `The model's answer does not have the expected shape ${expected}${where}: ${issue?.message ?? ''}`,
    raw,
  );
}

/** Finds labels by name (case-insensitive) or, where ids are allowed, by id. */
function labelResolver(labels: ModelLabel[], byId: boolean) {
  const byName = new Map(labels.map((l) => [l.name.trim().toLowerCase(), l]));
  const ids = new Map(labels.map((l) => [l.id, l]));
  const ignored = new Set<string>();
  const find = (ref: string | number): ModelLabel | undefined => {
    if (typeof ref === 'number') return byId ? ids.get(ref) : undefined;
    const named = byName.get(ref.trim().toLowerCase());
    if (named || !byId || !/^\d+$/.test(ref.trim())) return named;
    return ids.get(Number(ref));
  };
  const resolve = (ref: string | number): ModelLabel | null => {
    const found = find(ref);
    if (!found) ignored.add(String(ref));
    return found ?? null;
  };
  return { resolve, ignored };
}

export interface Span {
  labelId: number;
  start: number;
  end: number;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{M}\p{N}]/u.test(c);

/** Every occurrence of `needle` in `text` that does not cut a word in two. */
export function occurrences(text: string, needle: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (!needle) return out;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    const cutsBefore = isWordChar(needle[0]) && isWordChar(text[at - 1]);
    const cutsAfter = isWordChar(needle[needle.length - 1]) && isWordChar(text[end]);
    if (!cutsBefore && !cutsAfter) out.push({ start: at, end });
  }
  return out;
}

export interface Annotations {
  /** CLF: classifier type ids. */
  classes: number[];
  /** SPAN: spans in ModelText.content. */
  spans: Span[];
  ignoredLabels: string[];
  /** SPAN (LLM): span texts not found in the content. */
  notFound: number;
}

export function readAnswer(
  raw: string,
  kind: ModelKind,
  configType: ExternalConfig['configType'],
  labels: ModelLabel[],
  content: string,
): Annotations {
  const { resolve, ignored } = labelResolver(labels, configType === 'CUSTOM');
  const out: Annotations = { classes: [], spans: [], ignoredLabels: [], notFound: 0 };
  if (kind === 'CLF') {
    const answer = shaped(clfAnswer, raw, '{"labels": [...]}');
    const ids = answer.labels
      .map(resolve)
      .filter((l): l is ModelLabel => l !== null)
      .map((l) => l.id);
    out.classes = [...new Set(ids)];
  } else if (configType === 'LLM') {
    const answer = shaped(textSpanAnswer, raw, '{"spans": [{"label": ..., "text": ...}]}');
    for (const s of answer.spans) {
      const label = resolve(s.label);
      if (!label) continue;
      const found = occurrences(content, s.text);
      if (!found.length) out.notFound++;
      for (const o of found) out.spans.push({ labelId: label.id, ...o });
    }
  } else {
    const answer = shaped(offsetSpanAnswer, raw, '{"spans": [{"label": ..., "start": ..., "end": ...}]}');
    answer.spans.forEach((s, i) => {
      if (s.start < 0 || s.end <= s.start || s.end > content.length)
        throw new BadAnswer(
          `The model's span ${i} (${s.start}..${s.end}) is outside the document's ${content.length} characters`,
          raw,
        );
      const label = resolve(s.label);
      if (label) out.spans.push({ labelId: label.id, start: s.start, end: s.end });
    });
  }
  const unique = new Map(out.spans.map((s) => [`${s.labelId}:${s.start}:${s.end}`, s]));
  out.spans = [...unique.values()].sort(
    (a, b) => a.start - b.start || a.end - b.end || a.labelId - b.labelId,
  );
  out.ignoredLabels = [...ignored];
  return out;
}

/** The prompt of an external LLM: the task, the labels and the answer format, then the document. */
export function llmPrompt(kind: ModelKind, labels: ModelLabel[], text: ModelText): string {
  const list = labels
    .map((l) => `- ${JSON.stringify(l.name)}${l.description ? `: ${l.description}` : ''}`)
    .join('\n');
  const task =
    kind === 'CLF'
      ? 'Classify the document below. Choose every label from this list that applies to it (none if no label ' +
        'applies):\n' +
        `${list}\n\nAnswer with JSON only, exactly in the form {"labels": ["<label name>", ...]}.`
      : 'Find the passages of the document below that these labels describe:\n' +
        `${list}\n\nAnswer with JSON only, exactly in the form {"spans": [{"label": "<label name>", ` +
        '"text": "<the passage, copied exactly as it is written in the document>"}]}. List each distinct ' +
        'passage once.';
  return `${task}\n\nDocument ${JSON.stringify(text.filename)}:\n${text.content}`;
}
