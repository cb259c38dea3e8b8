/** Runs an entry point of the app (`tsx api/server.ts`) as its own process until it exits, for start-up checks. */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs the entry with env until it exits; its exit code and its non-empty output lines. */
export function runEntry(entry: string, env: NodeJS.ProcessEnv, timeoutMs = 60000) {
  return new Promise<{ code: number | null; stdout: string[]; stderr: string[] }>((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, entry)], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} still running after ${timeoutMs} ms: ${out}${err}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const lines = (s: string) => s.split('\n').filter((l) => l.trim());
      resolve({ code, stdout: lines(out), stderr: lines(err) });
    });
  });
}
