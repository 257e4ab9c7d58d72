/** The pool's `validation` task module: validation's one thread module (src/validation/thread.ts). */
export * from '../validation/thread';
