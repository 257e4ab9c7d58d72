import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The calling thread's id where Linux tells it (/proc/thread-self), else null. */
function threadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the scheduling priority of the calling thread alone to `nice` (0..19; 0 leaves it as it is). Linux
 * schedules each thread by its own nice value and `setpriority(PRIO_PROCESS, tid)` changes only that thread; the
 * thread learns its id from /proc/thread-self. Threads it starts afterwards inherit the value. Elsewhere (no
 * /proc) or where it is not permitted nothing changes. Returns a function that puts the thread's priority back
 * where permitted (raising it again needs CAP_SYS_NICE or RLIMIT_NICE), or null when nothing changed.
 */
export function lowerThreadPriority(nice: number): (() => void) | null {
  if (!(nice > 0)) return null;
  const tid = threadId();
  if (tid === null) return null;
  try {
    const before = getPriority(tid);
    setPriority(tid, Math.min(19, nice));
    return () => {
      try {
        setPriority(tid, before);
      } catch {
        // Not permitted: the thread stays lower.
      }
    };
  } catch {
    return null;
  }
}
