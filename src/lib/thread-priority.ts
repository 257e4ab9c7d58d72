import { readdirSync, readlinkSync } from 'node:fs';
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
  const tid = threadId();
  return tid === null ? null : lowerThreadsPriority([tid], nice);
}

/** The ids of this process's threads other than the calling one and `except` (Linux; elsewhere none). */
export function otherThreads(except: number[] = []): number[] {
  const self = threadId();
  try {
    return readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => tid !== self && !except.includes(tid));
  } catch {
    return [];
  }
}

/**
 * Lowers each of `threads` (thread ids of this process) to `nice` (0..19; 0 leaves them as they are; a thread
 * already that low or lower is left as it is), e.g. V8's garbage-collection and compiler threads, which Node starts
 * with the process at its priority and which serve every isolate of it, the CPU pool's threads too. A thread that
 * has ended or may not be changed stays as it is. Returns a function that puts them back where permitted (raising
 * a priority again needs CAP_SYS_NICE or RLIMIT_NICE), or null when nothing changed.
 */
export function lowerThreadsPriority(threads: number[], nice: number): (() => void) | null {
  if (!(nice > 0)) return null;
  const changed: Array<[number, number]> = [];
  for (const tid of threads) {
    try {
      const before = getPriority(tid);
      if (before >= nice) continue;
      setPriority(tid, Math.min(19, nice));
      changed.push([tid, before]);
    } catch {
      // Gone, or not permitted: that thread stays as it is.
    }
  }
  if (!changed.length) return null;
  return () => {
    for (const [tid, before] of changed) {
      try {
        setPriority(tid, before);
      } catch {
        // Not permitted, or the thread has ended.
      }
    }
  };
}
