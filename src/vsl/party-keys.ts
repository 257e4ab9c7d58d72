import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { rootCertificates } from 'node:tls';

/** A party's key document, fetched only from the URL its key_id names (vsl.md §1.2), with an SSRF guard: HTTPS
 * only, no redirect, a time and size limit, and no private, loopback or link-local address unless the URL starts
 * with an allowed prefix (VSL_PARTY_KEY_ALLOW: tests allow their loopback server). The address is vetted at
 * connect time, so a name cannot resolve to a public address for the check and a private one for the fetch. */

export interface PartyKeyFetchSettings {
  allow: readonly string[];
  /** Extra trusted CAs (PEM), beside Node's roots. */
  ca: string | null;
  timeoutMs: number;
  maxBytes: number;
}

export class PartyKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartyKeyError';
  }
}

/** An `https://` key_id as is; `did:web:host[:path…]` → `https://host[/path…]/did.json` (`/.well-known/did.json`
 * without a path), the host's `%3A` a port. */
export function keyDocumentUrl(keyId: string): string {
  if (keyId.startsWith('did:web:')) {
    const [host, ...segments] = keyId.slice('did:web:'.length).split(':');
    if (!host) throw new PartyKeyError(`${keyId} names no host`);
    const base = `https://${decodeURIComponent(host)}`;
    return segments.length ? `${base}/${segments.map(decodeURIComponent).join('/')}/did.json` : `${base}/.well-known/did.json`;
  }
  if (keyId.startsWith('https://')) return keyId;
  throw new PartyKeyError(`${keyId} is neither an https:// URL nor a did:web identifier`);
}

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that refuses private addresses (both the single and the `all` form net.connect may ask for). */
function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PartyKeyError(`${hostname} resolves to a private or loopback address (${bad.address})`), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/** The document's text and JSON value. */
export async function fetchKeyDocument(url: string, settings: PartyKeyFetchSettings): Promise<{ text: string; json: unknown }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PartyKeyError(`${url} is not a URL`);
  }
  if (parsed.protocol !== 'https:') throw new PartyKeyError(`party key documents are fetched over HTTPS only, not ${parsed.protocol}`);
  const allowed = settings.allow.some((prefix) => url.startsWith(prefix));
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowed && isIP(host) && isPrivateAddress(host)) throw new PartyKeyError(`${host} is a private or loopback address`);
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(
      parsed,
      {
        method: 'GET',
        headers: { accept: 'application/json, application/did+json' },
        ca: settings.ca ? [...rootCertificates, settings.ca] : undefined,
        lookup: allowed ? undefined : guardedLookup,
        timeout: settings.timeoutMs,
        signal: AbortSignal.timeout(settings.timeoutMs),
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(
            new PartyKeyError(
              `${url} answered ${res.statusCode}${res.statusCode && res.statusCode < 400 && res.statusCode >= 300 ? ' (redirects are not followed)' : ''}`,
            ),
          );
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > settings.maxBytes) {
            req.destroy(new PartyKeyError(`${url} is larger than ${settings.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new PartyKeyError(`${url} did not answer within ${settings.timeoutMs} ms`)));
    req.on('error', (error) => reject(error instanceof PartyKeyError ? error : new PartyKeyError(`${url} could not be fetched: ${error.message}`)));
    req.end();
  });
  try {
    return { text, json: JSON.parse(text) as unknown };
  } catch {
    throw new PartyKeyError(`${url} is not JSON`);
  }
}
