/**
 * A real OpenSSH server for the SFTP tests: Debian's /usr/sbin/sshd on a free loopback port, with its own
 * host key, configuration, authorized_keys and PID file in a temporary directory, key authentication only
 * and the internal SFTP subsystem. `startSshd()` also makes the client key pair the tests connect with.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from '../../scripts/lib/ports';

const SSHD = process.env.SSHD_PATH ?? '/usr/sbin/sshd';

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

export interface TestSshd {
  host: '127.0.0.1';
  port: number;
  /** The account the server lets in (the one running the tests). */
  username: string;
  /** A key pair whose public key is in authorized_keys. */
  clientKey: KeyPair;
  /** A folder that exists on the server, with a file in it. */
  folder: string;
  stop(): Promise<void>;
}

/** A fresh ed25519 key pair in OpenSSH format (ssh-keygen, no passphrase). */
export function generateKeyPair(dir: string, name: string): KeyPair {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file], { stdio: 'ignore' });
  return {
    publicKey: fs.readFileSync(`${file}.pub`, 'utf8').trim(),
    privateKey: fs.readFileSync(file, 'utf8'),
  };
}

export async function startSshd(): Promise<TestSshd> {
  if (!fs.existsSync(SSHD)) {
    throw new Error(`${SSHD} is missing: run scripts/install-system-deps.sh (openssh-server)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-sshd-'));
  const port = await freePort();
  const hostKey = path.join(dir, 'host_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey], { stdio: 'ignore' });
  const clientKey = generateKeyPair(dir, 'client_ed25519');
  const authorizedKeys = path.join(dir, 'authorized_keys');
  fs.writeFileSync(authorizedKeys, `${clientKey.publicKey}\n`, { mode: 0o600 });
  const folder = path.join(dir, 'files');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'hello.txt'), 'hello\n');
  // sshd running as root insists on its privilege-separation directory.
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorizedKeys}`,
      'PermitRootLogin yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'StrictModes no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );

  // -D: stay in the foreground (our child), -e: log to stderr.
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(port, '127.0.0.1', 15000),
      exited.then(() => {
        throw new Error(`sshd exited: ${stderr.trim()}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    host: '127.0.0.1',
    port,
    username: os.userInfo().username,
    clientKey,
    folder,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
