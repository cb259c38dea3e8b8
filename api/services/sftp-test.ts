/**
 * The SFTP connection test: a real connection (ssh2-sftp-client) to the guarded address, a listing of the
 * folder, then disconnect; everything within 10 s. The host goes through the net guard first, and the
 * client connects to the checked IP, never to the name again. The host key is verified against the pin the
 * connection has (a mismatch fails the test) and its fingerprint reported, so the form can offer to trust
 * it; the test itself never pins (the worker does on first use, or the user by saving the fingerprint).
 */
import SftpClient from 'ssh2-sftp-client';
import { connectVerified, HostKeyMismatch } from '../../server/sftp-connect';
import { guardOutbound } from './outbound';
import type { SftpTarget } from './sftp-connections';

export const SFTP_TEST_TIMEOUT_MS = 10_000;

/** `hostKey`: the fingerprint of the key the server presented (null when it failed before presenting one). */
export type SftpTestOutcome =
  { ok: true; hostKey: string } | { ok: false; detail: string; hostKey: string | null };

/** Connects and lists the folder; any failure becomes a detail a user can act on. */
export async function testSftpConnection(
  target: SftpTarget,
  allowlist: readonly string[],
  timeoutMs = SFTP_TEST_TIMEOUT_MS,
): Promise<SftpTestOutcome> {
  // Throws the 400 app error error.outboundAddressRefused before any connection is attempted.
  const resolved = await guardOutbound(target.address, allowlist, 'sftpConnection').catch((err) => {
    if ((err as { code?: string }).code === 'ENOTFOUND' || (err as { code?: string }).code === 'EAI_AGAIN')
      return { failed: `Host ${target.address} could not be resolved.` };
    throw err;
  });
  if ('failed' in resolved) return { ok: false, detail: resolved.failed, hostKey: null };
  if (!target.username) return { ok: false, detail: 'A username is needed to connect.', hostKey: null };

  const client = new SftpClient('sftp-test');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${timeoutMs / 1000} s.`)), timeoutMs);
  });
  let seen: string | null = null;
  try {
    await Promise.race([
      (async () => {
        await connectVerified(client, target, resolved.address, {
          timeoutMs,
          onHostKey: (fingerprint) => (seen = fingerprint),
        });
        await client.list(target.folder);
      })(),
      timeout,
    ]);
    return { ok: true, hostKey: seen! };
  } catch (err) {
    return { ok: false, detail: err instanceof HostKeyMismatch ? err.message : describe(err), hostKey: seen };
  } finally {
    clearTimeout(timer);
    await client.end().catch(() => undefined);
  }
}

/** ssh2 messages are prefixed with the client method ("connect: ..."); keep the part a user can read. */
function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (
    message.replace(/^((get)?connect(ion)?|list|sftp-test)[^:]*:\s*/i, '').trim() || 'Connection failed.'
  );
}
