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

/**
 * Starts `node bin/herald.js <role>` with `env` over the test's environment; the child is added
 * to `children` until it exits (so afterAll can kill what is left).
 */
export function spawnHerald(role: 'api' | 'worker' | 'start', env: Record<string, string | undefined>, children: Set<ChildProcess>,
  stdout: 'ignore' | 'inherit' = 'ignore'): ChildProcess {
  const child = spawn(process.execPath, ['bin/herald.js', role], { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** `kill -9`: resolves once the process is gone (at once if it already is). */
export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
