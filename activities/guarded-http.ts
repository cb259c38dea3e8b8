/**
 * One HTTP(S) request to a user-configured URL at the address the net guard checked
 * (server/net-guard.ts resolveOutbound): the Host header and the TLS server name keep the original
 * name, redirects are not followed, the answer is kept up to `maxBytes`, and the request is abandoned after
 * `timeoutMs`. Shared by the send-request node, external models and training.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export interface GuardedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  maxBytes: number;
}

export interface GuardedResponse {
  status: number;
  /** The answer's first `maxBytes` bytes as UTF-8. */
  body: string;
  /** The answer was longer than maxBytes. */
  truncated: boolean;
}

export function requestAt(address: string, req: GuardedRequest): Promise<GuardedResponse> {
  const secure = req.url.protocol === 'https:';
  const hostname = req.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const headers: Record<string, string | number> = { ...req.headers, Host: req.url.host };
  if (req.body !== null) headers['Content-Length'] = Buffer.byteLength(req.body);
  const options: https.RequestOptions = {
    host: address,
    port: req.url.port || (secure ? 443 : 80),
    path: `${req.url.pathname}${req.url.search}`,
    method: req.method,
    headers,
    // Certificates are checked against the original name, not the IP connected to.
    ...(secure && !net.isIP(hostname) ? { servername: hostname } : {}),
  };
  return new Promise((resolve, reject) => {
    const r = (secure ? https : http).request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (size >= req.maxBytes) {
          truncated = true;
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => {
        clearTimeout(timer);
        const all = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          body: all.subarray(0, req.maxBytes).toString('utf8'),
          truncated: truncated || all.length > req.maxBytes,
        });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(
      () => r.destroy(new Error(`The request to ${req.url.host} timed out after ${req.timeoutMs / 1000} s`)),
      req.timeoutMs,
    );
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body ?? undefined);
  });
}
