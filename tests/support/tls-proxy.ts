/**
 * A TLS front for the dev server (whose `start-dev` serves plain gRPC only): TLS, or mTLS with `clientCa`,
 * terminated here with ALPN h2 (gRPC over TLS needs it) and piped to the dev server's port, so a client really
 * speaks TLS to a real Temporal server.
 */
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';

export interface TlsProxy {
  address: string;
  port: number;
  close(): Promise<void>;
}

export async function startTlsProxy(opts: {
  target: string;
  cert: string;
  key: string;
  /** The CA client certificates must chain to: mutual TLS. */
  clientCa?: string;
}): Promise<TlsProxy> {
  const [host, port] = [
    opts.target.slice(0, opts.target.lastIndexOf(':')),
    Number(opts.target.split(':').pop()),
  ];
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    {
      cert: fs.readFileSync(opts.cert),
      key: fs.readFileSync(opts.key),
      ALPNProtocols: ['h2'],
      ...(opts.clientCa
        ? { ca: fs.readFileSync(opts.clientCa), requestCert: true, rejectUnauthorized: true }
        : {}),
    },
    (client) => {
      const upstream = net.connect(port, host);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    },
  );
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const listening = (server.address() as net.AddressInfo).port;
  return {
    address: `127.0.0.1:${listening}`,
    port: listening,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
