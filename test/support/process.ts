import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/** Runs the built CLI (`npm run build` first) and parses its single JSON line. */
export async function runCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; json: any; stderr: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/cli.js'), ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const lines = stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one JSON line, got: ${stdout}\n${stderr}`);
  return { code, json: JSON.parse(lines[0]), stderr };
}

/** Starts `node dist/src/main.js` and resolves once /readyz answers 200. */
export async function startService(env: Record<string, string>, port: number, timeoutMs = 60000): Promise<ChildProcess & { output: () => string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', PORT: String(port), ...env },
  }) as ChildProcess & { output: () => string };
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  child.output = () => output;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`service not ready in ${timeoutMs} ms:\n${output}`);
}

export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
}
