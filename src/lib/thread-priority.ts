import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the scheduling priority of the calling thread alone to `nice` (0..19; 0 leaves it as it is). Linux
 * schedules each thread by its own nice value and `setpriority(PRIO_PROCESS, tid)` changes only that thread; the
 * thread learns its id from /proc/thread-self. Elsewhere (no /proc) or where it is not permitted nothing changes.
 * Returns whether the priority was set.
 */
export function lowerThreadPriority(nice: number): boolean {
  if (!(nice > 0)) return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, Math.min(19, nice));
    return true;
  } catch {
    return false;
  }
}
