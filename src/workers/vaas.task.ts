/** The pool's `vaas` task module: another name of validation's one thread module (src/validation/thread.ts), so a
 * thread that runs tasks under both names keeps one compile cache. */
export * from '../validation/thread';
