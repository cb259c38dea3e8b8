/**
 * The RAG query form's values (spec 3 section 5, "RAG query"): kept as the user typed them, normalised as the
 * spec asks when a field is left and when the query is sent: topK clamped to 1..10 (whole; empty becomes 1),
 * the similarity threshold clamped to 0..1 on the 0.05 grid (empty becomes 0); the temperature is not clamped
 * (the form shows its min/max messages). Pure.
 */
import { SETTINGS_LIMITS } from '@domain/node-settings';
import { RAG_SIMILARITY, RAG_TOP_K, type RagQuery } from '@domain/rag-types';

export interface RagForm {
  query: string;
  llmModelId: string;
  secretId: string;
  topK: string;
  similarityThreshold: string;
  temperature: string;
}

export const INITIAL_RAG_FORM: RagForm = {
  query: '',
  llmModelId: '',
  secretId: '',
  topK: String(RAG_TOP_K.default),
  similarityThreshold: String(RAG_SIMILARITY.default),
  temperature: String(SETTINGS_LIMITS.temperature.default),
};

export function ragTopK(raw: string): number {
  const n = Math.round(Number(raw));
  if (raw.trim() === '' || !Number.isFinite(n)) return RAG_TOP_K.min;
  return Math.min(RAG_TOP_K.max, Math.max(RAG_TOP_K.min, n));
}

export function ragSimilarity(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) return RAG_SIMILARITY.default;
  const clamped = Math.min(RAG_SIMILARITY.max, Math.max(RAG_SIMILARITY.min, n));
  return Number((Math.round(clamped / RAG_SIMILARITY.step) * RAG_SIMILARITY.step).toFixed(2));
}

/** The body of `POST api/rag` (a temperature that does not parse is NaN, which the rules report). */
export const ragQueryOf = (form: RagForm, processId: number): RagQuery => ({
  query: form.query,
  processId,
  topK: ragTopK(form.topK),
  similarityThreshold: ragSimilarity(form.similarityThreshold),
  temperature: form.temperature.trim() === '' ? Number.NaN : Number(form.temperature),
  llmModel: { id: Number(form.llmModelId) },
  secret: form.secretId ? { id: Number(form.secretId) } : null,
});
