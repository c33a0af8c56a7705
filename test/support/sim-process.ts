/**
 * Runs a platform simulator in its own process (its state outlives the Herald processes a
 * test kills) and reads the JSON line it prints when it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface SimProcess<T> {
  info: T;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startSimProcess<T extends { url: string }>(script: string, env: Record<string, string> = {}): Promise<SimProcess<T>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 60 s`)), 60_000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${script} exited with ${code}`)); });
    lines.once('line', (line) => { clearTimeout(timer); resolve(JSON.parse(line) as T); });
  });
  return {
    info, child,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
