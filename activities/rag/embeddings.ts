/**
 * Dense vectors from an OpenAI-compatible `/v1/embeddings` endpoint (`openai` package, like the LLM prompt
 * node's chat calls): EMBEDDINGS_MODEL at EMBEDDINGS_BASE_URL (LLM_BASE_URL when unset) with
 * EMBEDDINGS_API_KEY. Texts go in batches; floats are asked for (the SDK's default is base64).
 */
import OpenAI from 'openai';

export interface EmbeddingsConfig {
  model: string;
  baseUrl: string;
  apiKey: string;
}

const BATCH = 64;
const TIMEOUT_MS = 60_000;

export async function embedTexts(cfg: EmbeddingsConfig, texts: readonly string[]): Promise<number[][]> {
  const client = new OpenAI({
    apiKey: cfg.apiKey || 'none',
    baseURL: cfg.baseUrl,
    maxRetries: 0,
    timeout: TIMEOUT_MS,
  });
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const res = await client.embeddings.create({
      model: cfg.model,
      input: texts.slice(i, i + BATCH),
      encoding_format: 'float',
    });
    const data = [...res.data].sort((a, b) => a.index - b.index);
    if (data.length !== Math.min(BATCH, texts.length - i))
      throw new Error(
        `The embeddings API answered ${data.length} vectors for ${Math.min(BATCH, texts.length - i)} texts`,
      );
    out.push(...data.map((d) => d.embedding));
  }
  return out;
}
