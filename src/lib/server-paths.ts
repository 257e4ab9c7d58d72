/** An absolute server path in an error message: after a start, a space, a quote, a bracket, `=` or `file://`,
 * never inside a URL (whose path follows a host, not one of those). */
const ABSOLUTE_PATH = /(^|[\s'"`([=]|file:\/\/)(\/(?:[^\s'"`()[\]:,;]+\/)+)([^\s'"`()[\]:,;/]*)/g;

/** A message fit for a client: every absolute server path reduced to its last segment (the file's name), so
 * job errors and finalize errors say which file without telling where the server keeps it. */
export function hideServerPaths(message: string): string {
  return message.replace(
    ABSOLUTE_PATH,
    (_match, before: string, _dir: string, name: string) => `${before === 'file://' ? '' : before}${name || '…'}`,
  );
}
