/**
 * A local OpenAI-compatible chat API for tests: `POST /v1/chat/completions` records the request and answers
 * `answer(request)` (by default a deterministic echo of the model, temperature and user text). Statuses
 * queued in `failures` are answered first, one per request, with an OpenAI-style error body.
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

export const echoAnswer = (req: ChatRequest): string =>
  `echo(${req.body.model}, t=${req.body.temperature ?? 'none'}): ${userText(req)}`;

export interface OpenAiServer {
  /** Base URL for the `openai` client (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: ChatRequest[];
  failures: number[];
  answer: (req: ChatRequest) => string;
  close(): Promise<void>;
}

export async function startOpenAiServer(): Promise<OpenAiServer> {
  const state = {
    requests: [] as ChatRequest[],
    failures: [] as number[],
    answer: echoAnswer,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
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
