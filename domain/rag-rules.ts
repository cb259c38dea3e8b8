/**
 * Rules of RAG (spec 3 section 5), one function per spec rule, for the RAG screens and the API alike:
 * - the template is non-empty and contains both the RAG input and the RAG documents wildcards, else
 *   'soaApp.ragTemplate.creatorModal.editorValidationError';
 * - a query needs an LLM model ('entity.validation.required'), topK 1..10 (whole), similarity threshold 0..1,
 *   temperature 0..2 (min/max messages). The form clamps topK and the threshold
 *   (web/src/features/rag/form.ts); the API refuses values outside.
 */
import { rangeRule, type FieldViolation } from './node-settings-rules';
import { SETTINGS_LIMITS } from './node-settings';
import {
  RAG_DOCUMENTS_WILDCARD,
  RAG_INPUT_WILDCARD,
  RAG_SIMILARITY,
  RAG_TOP_K,
  type RagQuery,
} from './rag-types';
import type { Violation } from './validation';

export const RAG_TEMPLATE_ERROR = 'soaApp.ragTemplate.creatorModal.editorValidationError';

export function ragTemplateRule(template: string | null | undefined): Violation | null {
  const text = template ?? '';
  if (text.trim() === '') return { code: 'NotBlank', key: RAG_TEMPLATE_ERROR };
  if (!text.includes(RAG_INPUT_WILDCARD) || !text.includes(RAG_DOCUMENTS_WILDCARD))
    return { code: 'Pattern', key: RAG_TEMPLATE_ERROR };
  return null;
}

/** The fields of a query as far as they are known (a form's number that does not parse is NaN). */
export type RagQueryFields = Pick<RagQuery, 'topK' | 'similarityThreshold' | 'temperature'> & {
  llmModel?: { id: number } | null;
};

export function ragQueryRules(q: RagQueryFields): FieldViolation[] {
  const t = SETTINGS_LIMITS.temperature;
  const checks: [string, Violation | null][] = [
    ['llmModel', q.llmModel?.id ? null : { code: 'NotBlank', key: 'entity.validation.required' }],
    ['topK', rangeRule(q.topK, RAG_TOP_K.min, RAG_TOP_K.max, true)],
    ['similarityThreshold', rangeRule(q.similarityThreshold, RAG_SIMILARITY.min, RAG_SIMILARITY.max)],
    ['temperature', rangeRule(q.temperature, t.min, t.max)],
  ];
  return checks.flatMap(([field, violation]) => (violation ? [{ field, violation }] : []));
}
