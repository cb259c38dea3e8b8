/**
 * A real Dovecot IMAP server for the e-mail upload tests: Debian's /usr/sbin/dovecot in the foreground on a
 * free loopback port, plain IMAP only (no TLS), with its own configuration, run/state directories, log and
 * Maildir in a temporary directory, and one user with a known password (passwd-file, PLAIN scheme). Mails
 * are delivered by writing RFC 822 files into the Maildir's `new/` folder, as a local delivery agent does.
 * Run as root (the tests' usual case), the login processes use Debian's `dovenull` account and the internal
 * processes and the mailbox its `dovecot` account (Dovecot refuses mail access as root); otherwise everything
 * runs as the current user. A failed sign-in makes Dovecot delay the next ones from 127.0.0.1 by a few seconds
 * (its auth penalty): suites should try a wrong password last.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from '../../scripts/lib/ports';

const DOVECOT = process.env.DOVECOT_PATH ?? '/usr/sbin/dovecot';

export interface TestDovecot {
  host: '127.0.0.1';
  /** Plain IMAP (no TLS, no STARTTLS). */
  port: number;
  /** The login of the one mailbox. */
  user: string;
  password: string;
  /** Puts a mail (RFC 822 text, CRLF or LF) into the user's INBOX; returns its Maildir file name. */
  deliver(raw: string | Buffer): string;
  /** What Dovecot logged so far, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/** uid and gid of a system account (Node has no getpwnam). */
function accountIds(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`the account ${name} is missing: reinstall dovecot-core`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The accounts Dovecot's processes run as. As root: Debian's `dovenull` for logins and `dovecot` for the
 * internal processes and the mailbox (Dovecot refuses mail access as root). Otherwise: the current user.
 */
function accounts() {
  if (process.getuid?.() === 0) {
    return { ...accountIds('dovecot'), loginUser: 'dovenull', internalUser: 'dovecot' };
  }
  const me = os.userInfo();
  return { uid: me.uid, gid: me.gid, loginUser: me.username, internalUser: me.username };
}

type Accounts = ReturnType<typeof accounts>;

function writeConfig(dir: string, a: Accounts, port: number, user: string, password: string): string {
  const passwd = path.join(dir, 'passwd');
  const home = path.join(dir, 'home', user);
  // user:password:uid:gid:gecos:home:shell:extra; readable by the auth process (dovecot account).
  fs.writeFileSync(passwd, `${user}:{PLAIN}${password}:${a.uid}:${a.gid}::${home}::\n`, { mode: 0o644 });
  const config = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(
    config,
    [
      `base_dir = ${path.join(dir, 'run')}`,
      `state_dir = ${path.join(dir, 'state')}`,
      `log_path = ${path.join(dir, 'dovecot.log')}`,
      `instance_name = wb-test-${path.basename(dir)}`,
      'protocols = imap',
      'listen = 127.0.0.1',
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      // A wrong password is answered at once (the default waits 2 s per attempt).
      'auth_failure_delay = 0',
      `default_login_user = ${a.loginUser}`,
      `default_internal_user = ${a.internalUser}`,
      `first_valid_uid = ${a.uid}`,
      `first_valid_gid = ${a.gid}`,
      'mail_location = maildir:~/Maildir',
      'passdb {',
      '  driver = passwd-file',
      `  args = scheme=PLAIN username_format=%u ${passwd}`,
      '}',
      'userdb {',
      '  driver = passwd-file',
      `  args = username_format=%u ${passwd}`,
      '}',
      'service imap-login {',
      '  inet_listener imap {',
      '    address = 127.0.0.1',
      `    port = ${port}`,
      '  }',
      '  inet_listener imaps {',
      '    port = 0',
      '  }',
      '}',
      // No doveadm TCP listener: the tests only speak IMAP.
      'service doveadm {',
      '  inet_listener {',
      '    port = 0',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  return config;
}

export async function startDovecot(): Promise<TestDovecot> {
  if (!fs.existsSync(DOVECOT)) {
    throw new Error(`${DOVECOT} is missing: run scripts/install-system-deps.sh (dovecot-imapd)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-dovecot-'));
  // The login and internal accounts must reach base_dir under it.
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'reader@example.test';
  const password = `pw-${crypto.randomUUID()}`;
  const a = accounts();
  const config = writeConfig(dir, a, port, user, password);
  const maildir = path.join(dir, 'home', user, 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) fs.mkdirSync(path.join(maildir, sub), { recursive: true });
  // The mailbox belongs to the mail account, from the home folder down.
  for (const p of [
    path.join(dir, 'home', user),
    maildir,
    ...['cur', 'new', 'tmp'].map((d) => path.join(maildir, d)),
  ])
    fs.chownSync(p, a.uid, a.gid);
  const logFile = path.join(dir, 'dovecot.log');
  const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');

  // -F: stay in the foreground (our child).
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(port, '127.0.0.1', 15000),
      exited.then(() => {
        throw new Error(`dovecot exited: ${stderr.trim()}\n${log()}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  let delivered = 0;
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    deliver(raw) {
      // Maildir: write under tmp/, then rename into new/ so Dovecot never sees a half-written file.
      const name = `${Math.floor(Date.now() / 1000)}.M${++delivered}P${process.pid}.wb-test`;
      const tmp = path.join(maildir, 'tmp', name);
      fs.writeFileSync(tmp, raw);
      fs.chownSync(tmp, a.uid, a.gid);
      fs.renameSync(tmp, path.join(maildir, 'new', name));
      return name;
    },
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
