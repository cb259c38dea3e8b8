/**
 * A real OpenSSH server for the SFTP tests: Debian's /usr/sbin/sshd on a free loopback port, with its own
 * host key, configuration, authorized_keys and PID file in a temporary directory and the internal SFTP
 * subsystem. The account running the tests logs in with a key only (`startSshd()` makes the client key pair);
 * when the tests run as root, a local account `wbsftp` (created once, idempotently, with a fixed password and
 * the nologin shell, so only this sshd's internal SFTP lets it in) logs in with its password only.
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
  /** The SHA256 fingerprint of the server's host key, as `ssh-keygen -lf host.pub -E sha256` prints it. */
  hostKeyFingerprint: string;
  /**
   * An account that logs in with a password, and an empty folder it owns (in this server's temporary
   * directory). Reading it throws unless the tests run as root (sshd checks passwords in /etc/shadow).
   */
  passwordUser: PasswordUser;
  stop(): Promise<void>;
}

export interface PasswordUser {
  username: string;
  password: string;
  folder: string;
}

const PASSWORD_USER = 'wbsftp';
/** Fixed, so concurrent suites setting it do not undo each other; the account cannot get a shell. */
const PASSWORD = 'wb-sftp-test-Pa55';
const NOLOGIN = fs.existsSync('/usr/sbin/nologin') ? '/usr/sbin/nologin' : '/sbin/nologin';

const isRoot = () => process.getuid?.() === 0;

/** Runs a command that edits /etc/passwd or /etc/shadow, retrying while another suite holds their lock. */
function runLocked(cmd: string, args: string[], input?: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      execFileSync(cmd, args, { input, stdio: ['pipe', 'ignore', 'pipe'] });
      return;
    } catch (err) {
      const stderr = String((err as { stderr?: Buffer }).stderr ?? '');
      if (attempt >= 20 || !/lock|try again/i.test(stderr))
        throw new Error(`${cmd} failed: ${stderr.trim()}`, { cause: err });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200); // a short synchronous pause
    }
  }
}

const userExists = (name: string) => {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Makes sure the password account exists with PASSWORD; returns its uid and gid. */
function ensurePasswordUser(): { uid: number; gid: number } {
  if (!userExists(PASSWORD_USER)) {
    try {
      runLocked('useradd', [
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        NOLOGIN,
        PASSWORD_USER,
      ]);
    } catch (err) {
      if (!userExists(PASSWORD_USER)) throw err; // else another suite created it meanwhile
    }
  }
  runLocked('chpasswd', [], `${PASSWORD_USER}:${PASSWORD}\n`);
  const id = (flag: string) => Number(execFileSync('id', [flag, PASSWORD_USER]).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
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
  // "256 SHA256:<base64> comment (ED25519)"
  const hostKeyFingerprint = execFileSync('ssh-keygen', ['-lf', `${hostKey}.pub`, '-E', 'sha256'])
    .toString()
    .split(' ')[1];
  const clientKey = generateKeyPair(dir, 'client_ed25519');
  const authorizedKeys = path.join(dir, 'authorized_keys');
  fs.writeFileSync(authorizedKeys, `${clientKey.publicKey}\n`, { mode: 0o600 });
  const folder = path.join(dir, 'files');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'hello.txt'), 'hello\n');
  // sshd running as root insists on its privilege-separation directory.
  if (isRoot()) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  let passwordUser: PasswordUser | undefined;
  if (isRoot()) {
    const { uid, gid } = ensurePasswordUser();
    const pwFolder = path.join(dir, 'password-files');
    fs.mkdirSync(pwFolder, { mode: 0o755 });
    fs.chownSync(pwFolder, uid, gid);
    fs.chmodSync(dir, 0o711); // the account may pass through to its folder, not list the keys
    passwordUser = { username: PASSWORD_USER, password: PASSWORD, folder: pwFolder };
  }

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
      // Match blocks go last: the password account, and only it, logs in with its password.
      `Match User ${PASSWORD_USER}`,
      '  PasswordAuthentication yes',
      '  PubkeyAuthentication no',
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
    hostKeyFingerprint,
    get passwordUser(): PasswordUser {
      if (!passwordUser) throw new Error('The password account needs the tests to run as root');
      return passwordUser;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
