/**
 * A local OpenAI-compatible chat API for tests: `POST /v1/chat/completions` records the request and answers
 * `answer(request)` (by default a deterministic echo of the model, temperature and user text). Statuses
 * queued in `failures` are answered first, one per request, with an OpenAI-style error body.
 * `POST /v1/embeddings` records the request in `embeddingRequests` and answers `embed(text)` per input
 * (by default `wordVector`: a deterministic bag of the text's words hashed into 32 dimensions).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  authorization: string | undefined;
  body: {
    model: string;
    temperature?: number;
    messages: { role: string; content: string | { type: string; text?: string }[] }[];
  };
}

/** The text of the request's user messages, parts joined by a blank line. */
export function userText(req: ChatRequest): string {
  return req.body.messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? `[${p.type}]`).join('\n\n'),
    )
    .join('\n\n');
}

export interface EmbeddingRequest {
  authorization: string | undefined;
  body: { model: string; input: string | string[]; encoding_format?: string };
}

/** Words hashed into 32 dimensions and counted: texts sharing words point alike. */
export function wordVector(text: string): number[] {
  const v = new Array<number>(32).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 0;
    for (const c of w) h = (h * 31 + c.codePointAt(0)!) >>> 0;
    v[h % 32] += 1;
  }
  return v;
}

export const echoAnswer = (req: ChatRequest): string =>
  `echo(${req.body.model}, t=${req.body.temperature ?? 'none'}): ${userText(req)}`;

export interface OpenAiServer {
  /** Base URL for the `openai` client (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: ChatRequest[];
  failures: number[];
  answer: (req: ChatRequest) => string;
  embeddingRequests: EmbeddingRequest[];
  embed: (text: string) => number[];
  close(): Promise<void>;
}

export async function startOpenAiServer(): Promise<OpenAiServer> {
  const state = {
    requests: [] as ChatRequest[],
    failures: [] as number[],
    answer: echoAnswer,
    embeddingRequests: [] as EmbeddingRequest[],
    embed: wordVector,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && req.url === '/v1/embeddings') {
        let body: EmbeddingRequest['body'];
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, { error: { message: 'Invalid JSON', type: 'invalid_request_error' } });
        }
        state.embeddingRequests.push({ authorization: req.headers.authorization, body });
        const failure = state.failures.shift();
        if (failure !== undefined)
          return send(failure, { error: { message: `Injected HTTP ${failure}`, type: 'server_error' } });
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        return send(200, {
          object: 'list',
          model: body.model,
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: state.embed(text) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        });
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return send(404, {
          error: { message: `No route ${req.method} ${req.url}`, type: 'invalid_request_error' },
        });
      let body: ChatRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { error: { message: 'Invalid JSON', type: 'invalid_request_error' } });
      }
      const recorded: ChatRequest = { authorization: req.headers.authorization, body };
      state.requests.push(recorded);
      const failure = state.failures.shift();
      if (failure !== undefined)
        return send(failure, { error: { message: `Injected HTTP ${failure}`, type: 'server_error' } });
      send(200, {
        id: `chatcmpl-${state.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: state.answer(recorded) },
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
