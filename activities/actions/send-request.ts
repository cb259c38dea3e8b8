/**
 * SEND_REQUEST executor (spec 3 sections 3 and 7): the node's method, URL, headers and JSON or plain-text
 * body, rendered for the document, sent with node:http(s) to the address the net guard checked (Host header
 * and TLS server name keep the original name), 10 s budget. The response status and body (first 64 KiB) are
 * the result. 2xx succeeds; 5xx and network errors are retried; 4xx, other statuses, bad configuration and
 * refused addresses fail for good.
 */
import { stepError } from '../../domain/step-errors';
import type { Knex } from 'knex';
import { requestAt, type GuardedResponse } from '../guarded-http';
import { HttpRequestMethods, type NodeSettings } from '../../domain/graph-types';
import { renderTemplate, WildcardRenderError, type RenderData } from '../../domain/wildcard-render';
import { OutboundRefused, resolveOutbound } from '../../server/net-guard';
import {
  alreadySucceeded,
  beginSend,
  executionKey,
  loadActionNode,
  loadRenderData,
  permanentFailure,
  recordResult,
  refusalMessage,
} from './context';
import type { ActionExecutor, RunAutomaticNodeInput } from './index';

export const REQUEST_TIMEOUT_MS = 10_000;
export const MAX_STORED_BODY = 64 * 1024;

interface PreparedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | null;
}

/** The node's request rendered for the document; a string is the reason the configuration is unusable. */
function prepare(settings: NodeSettings, data: RenderData): PreparedRequest | string {
  const method = settings.httpRequestMethod ?? 'GET';
  if (!HttpRequestMethods.includes(method)) return `The request method ${method} is not supported`;
  if (!settings.url?.trim()) return 'The request has no URL';
  let url: URL;
  try {
    url = new URL(renderTemplate(settings.url.trim(), data, 'url'));
  } catch (err) {
    if (err instanceof WildcardRenderError) throw err;
    return `The request URL is not a valid URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The request URL must use http or https';
  const headers: Record<string, string> = {};
  for (const [name, h] of Object.entries(settings.headers ?? {})) {
    if (!name.trim()) continue;
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name.trim())) return `The header name "${name}" is not valid`;
    headers[name.trim()] = renderTemplate(h?.value ?? '', data, 'header');
  }
  const hasHeader = (n: string) => Object.keys(headers).some((k) => k.toLowerCase() === n);
  let body: string | null = null;
  const rb = settings.requestBody;
  if (method !== 'GET' && rb?.bodyType === 'JSON') {
    const json: Record<string, string> = {};
    for (const [key, v] of Object.entries(rb.jsonBody ?? {}))
      json[key] = renderTemplate(v?.value ?? '', data);
    body = JSON.stringify(json);
    if (!hasHeader('content-type')) headers['Content-Type'] = 'application/json';
  } else if (method !== 'GET' && rb?.bodyType === 'PLAIN_TEXT') {
    body = renderTemplate(rb.plainTextBody ?? '', data);
    if (!hasHeader('content-type')) headers['Content-Type'] = 'text/plain; charset=utf-8';
  }
  return { method, url, headers, body };
}

type Response = GuardedResponse;

/** Sends to the checked address; resolves with the status and up to MAX_STORED_BODY bytes of the body. */
const send = (req: PreparedRequest, address: string): Promise<Response> =>
  requestAt(address, { ...req, timeoutMs: REQUEST_TIMEOUT_MS, maxBytes: MAX_STORED_BODY });

async function execute(
  input: RunAutomaticNodeInput,
  knex: Knex,
  allowlist: readonly string[],
): Promise<void> {
  const node = await loadActionNode(knex, input.nodeId);
  const data = await loadRenderData(knex, input);
  let prepared: PreparedRequest | string;
  try {
    prepared = prepare(node.settings, data);
  } catch (err) {
    if (err instanceof WildcardRenderError) throw await permanentFailure(knex, input, err.message);
    throw err;
  }
  if (typeof prepared === 'string') throw await permanentFailure(knex, input, prepared);
  const request = { method: prepared.method, url: prepared.url.toString() };
  let address: string;
  try {
    address = (await resolveOutbound(prepared.url.hostname, allowlist)).address;
  } catch (err) {
    if (err instanceof OutboundRefused)
      throw await permanentFailure(knex, input, refusalMessage(err), request);
    throw err; // the name does not resolve (now): retried
  }
  const outbox = await beginSend(knex, input);
  if (outbox === 'done') return;
  if (outbox === 'interrupted')
    throw await permanentFailure(
      knex,
      input,
      stepError.requestInterrupted.text({ host: prepared.url.host }),
      request,
    );
  let response: Response;
  try {
    response = await send(prepared, address);
  } catch (err) {
    const message = stepError.requestFailed.text({ host: prepared.url.host, detail: (err as Error).message });
    await recordResult(knex, input, 'FAILURE', { ...request, error: message });
    throw new Error(message, { cause: err });
  }
  const details = { ...request, ...response };
  if (response.status >= 200 && response.status < 300) {
    await recordResult(knex, input, 'SUCCESS', details);
    return;
  }
  const message = stepError.requestStatus.text({ host: prepared.url.host, status: String(response.status) });
  if (response.status >= 500) {
    await recordResult(knex, input, 'FAILURE', { ...details, error: message });
    throw new Error(message);
  }
  throw await permanentFailure(knex, input, message, details);
}

export const sendRequest: ActionExecutor = async (input, deps) => {
  if (await alreadySucceeded(deps.knex, executionKey(input))) return;
  await execute(input, deps.knex, deps.outboundAllowlist ?? []);
};
