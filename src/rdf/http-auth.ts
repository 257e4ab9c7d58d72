import { createHash, randomBytes } from 'node:crypto';
import { TriplestoreError } from './triplestore';

export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses a WWW-Authenticate value, which may hold several challenges (RFC 9110 §11.6.1). */
export function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  const token = /\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)/y;
  let position = 0;
  while (position < header.length) {
    token.lastIndex = position;
    const scheme = token.exec(header);
    if (!scheme) break;
    const challenge: Challenge = { scheme: scheme[1].toLowerCase(), params: {} };
    challenges.push(challenge);
    position = token.lastIndex;
    const param = /\s*,?\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*)/y;
    for (;;) {
      param.lastIndex = position;
      const match = param.exec(header);
      if (!match) break;
      challenge.params[match[1].toLowerCase()] = match[3] !== undefined ? match[3].replace(/\\(.)/g, '$1') : match[2];
      position = param.lastIndex;
    }
    const separator = /\s*,\s*/y;
    separator.lastIndex = position;
    if (separator.exec(header)) position = separator.lastIndex;
    else if (position < header.length && !/^\s*$/.test(header.slice(position))) position += 1;
    else break;
  }
  return challenges;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

const DIGEST_HASHES: Record<string, string> = { md5: 'md5', 'md5-sess': 'md5', 'sha-256': 'sha256', 'sha-256-sess': 'sha256' };

/** The Authorization value answering a Digest challenge (RFC 7616): MD5 or SHA-256, qop auth, optional -sess. */
export function digestAuthorization(
  challenge: Challenge,
  request: { method: string; uri: string; user: string; password: string; nc: number; cnonce?: string },
): string {
  const { realm = '', nonce = '', opaque, qop } = challenge.params;
  const algorithm = (challenge.params.algorithm ?? 'MD5').toLowerCase();
  const hashName = DIGEST_HASHES[algorithm];
  if (!hashName) throw new TriplestoreError(`unsupported Digest algorithm ${challenge.params.algorithm}`);
  const hash = (text: string) => createHash(hashName).update(text, 'utf8').digest('hex');
  const cnonce = request.cnonce ?? randomBytes(16).toString('hex');
  const nc = request.nc.toString(16).padStart(8, '0');
  let ha1 = hash(`${request.user}:${realm}:${request.password}`);
  if (algorithm.endsWith('-sess')) ha1 = hash(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = hash(`${request.method}:${request.uri}`);
  const qops = (qop ?? '').split(',').map((value) => value.trim().toLowerCase());
  if (qop !== undefined && !qops.includes('auth')) throw new TriplestoreError(`unsupported Digest qop "${qop}"`);
  const response = qop !== undefined ? hash(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`) : hash(`${ha1}:${nonce}:${ha2}`);
  const parts = [
    `username=${quoted(request.user)}`,
    `realm=${quoted(realm)}`,
    `nonce=${quoted(nonce)}`,
    `uri=${quoted(request.uri)}`,
    `algorithm=${challenge.params.algorithm ?? 'MD5'}`,
    `response="${response}"`,
  ];
  if (opaque !== undefined) parts.push(`opaque=${quoted(opaque)}`);
  if (qop !== undefined) parts.push('qop=auth', `nc=${nc}`, `cnonce=${quoted(cnonce)}`);
  return `Digest ${parts.join(', ')}`;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: URL;
  headers?: Record<string, string>;
  body?: string;
  /** This request's budget instead of the fetcher's (e.g. the SPARQL timeout for queries). */
  timeoutMs?: number;
}

/** Statuses whose responses have no body by definition (a Response with one cannot be built). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** fetch with a timeout and HTTP authentication: Basic, or Digest (which Node's fetch does not do). The scheme and
 * nonce are learnt from a 401 challenge and reused, so later requests go authenticated at once; a 401 (expired nonce,
 * changed scheme) refreshes them and retries once. */
export class AuthenticatingFetcher {
  private digest: { challenge: Challenge; nc: number } | null = null;
  private basic = false;

  constructor(private readonly options: { user: string | null; password: string | null; timeoutMs: number }) {}

  async fetch(request: HttpRequest): Promise<Response> {
    const response = await this.send(request, this.authorization(request));
    if (response.status !== 401 || this.options.user === null) return response;
    const challenges = parseChallenges(response.headers.get('www-authenticate') ?? '');
    const digest = challenges.find((c) => c.scheme === 'digest');
    if (!digest && !challenges.some((c) => c.scheme === 'basic')) return response;
    await response.body?.cancel();
    this.digest = digest ? { challenge: digest, nc: 0 } : null;
    this.basic = !digest;
    return this.send(request, this.authorization(request));
  }

  private authorization(request: HttpRequest): string | undefined {
    const { user, password } = this.options;
    if (user === null) return undefined;
    if (this.digest) {
      this.digest.nc += 1;
      const uri = request.url.pathname + request.url.search;
      return digestAuthorization(this.digest.challenge, { method: request.method, uri, user, password: password ?? '', nc: this.digest.nc });
    }
    if (this.basic) return `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}`;
    return undefined;
  }

  /** The whole exchange, body included, within the timeout: a store that sends headers and then stalls fails
   * as one that never answers, with a TriplestoreError. The body is buffered (answers here are small). */
  private async send(request: HttpRequest, authorization: string | undefined): Promise<Response> {
    const headers = { ...request.headers, ...(authorization ? { authorization } : {}) };
    const where = `${request.method} ${request.url.origin}${request.url.pathname}`;
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    try {
      const response = await fetch(request.url, { method: request.method, headers, body: request.body, signal: AbortSignal.timeout(timeoutMs) });
      const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : describeNetworkError(error);
      throw new TriplestoreError(`triplestore unreachable: ${where}: ${reason}`, undefined, { cause: error });
    }
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** Throws a TriplestoreError carrying the status and the start of the body unless the response is a success. */
export async function ensureOk(response: Response, what: string, allowed: number[] = []): Promise<void> {
  if (response.ok || allowed.includes(response.status)) {
    await response.body?.cancel();
    return;
  }
  const body = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 300);
  const hint = response.status === 401 ? ' (check TRIPLESTORE_USER / TRIPLESTORE_PASSWORD)' : '';
  throw new TriplestoreError(`${what} failed: HTTP ${response.status}${hint}${body ? `: ${body}` : ''}`, response.status);
}
