import { createHash } from 'node:crypto';
import net from 'node:net';

// JSON.stringify turns a Buffer into { type: 'Buffer', data: [...] }; the digest hashes its bytes as hex instead.
const isBufferJson = (value: unknown): value is { type: 'Buffer'; data: number[] } =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer';

/** Digests of the distinct hostile inputs a suite sent: repeats count once. */
export class HostileInputs {
  private readonly digests = new Set<string>();

  get size(): number {
    return this.digests.size;
  }

  /** Counts one input made of `parts` (method, path, headers, body, …; FormData and Buffers by their bytes). */
  async add(...parts: unknown[]): Promise<void> {
    const hash = createHash('sha256');
    for (const part of parts) {
      if (part instanceof FormData) {
        const entries: Array<[string, FormDataEntryValue]> = [];
        part.forEach((value, name) => entries.push([name, value]));
        for (const [name, value] of entries) hash.update(name).update(typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer()));
      } else if (Buffer.isBuffer(part) || part instanceof Uint8Array) hash.update(part);
      else hash.update(JSON.stringify(part ?? null, (_key, v: unknown) => (isBufferJson(v) ? Buffer.from(v.data).toString('hex') : v)));
    }
    this.digests.add(hash.digest('hex'));
  }
}

/** Sends raw bytes on a fresh connection to `baseUrl`'s port and returns what came back before the server closed
 * it (or `waitMs`); `halfClose` ends the client's side once the bytes are written. */
export function rawExchange(baseUrl: string, request: Buffer | string, options: { halfClose?: boolean; waitMs?: number } = {}): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    const finish = () => {
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(finish, options.waitMs ?? 5000);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => (clearTimeout(timer), finish()));
    socket.on('error', () => undefined);
    socket.write(request, () => {
      if (options.halfClose) socket.end();
    });
  });
}

/** The status code and the JSON body of a raw HTTP/1.1 response. */
export const rawStatus = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
export const rawBody = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
