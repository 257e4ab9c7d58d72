/** Another name of the pool's `validation` task module (./validation.task.ts, validation's one thread module), so a
 * thread that runs tasks under several names keeps one compile cache. */
export * from './validation.task';
