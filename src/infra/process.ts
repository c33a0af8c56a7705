/** Process-level facts of this host. */

/** Whether a process with this pid exists on this host (EPERM: it exists, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
