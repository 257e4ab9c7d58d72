/** A small fetch client that keeps cookies like a browser and sends the CSRF header on unsafe requests. */
export class HttpClient {
  private cookies = new Map<string, string>();
  authorization?: string;
  sendCsrf = true;

  constructor(readonly baseUrl: string) {}

  withToken(key: string): HttpClient {
    const client = new HttpClient(this.baseUrl);
    client.authorization = `Token ${key}`;
    return client;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined && !(body instanceof FormData) && typeof body !== 'string') h['content-type'] = 'application/json';
    if (this.authorization) h.authorization = this.authorization;
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('csrftoken');
    if (this.sendCsrf && csrf && !['GET', 'HEAD'].includes(method)) h['x-csrftoken'] = csrf;
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : body instanceof FormData || typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (!value || /expires=Thu, 01 Jan 1970/i.test(setCookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, body: json, text, headers: response.headers };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body ?? {}, headers);
  }
  patch(path: string, body?: unknown) {
    return this.request('PATCH', path, body ?? {});
  }

  async graphql(query: string, variables?: Record<string, unknown>) {
    return this.request('POST', '/graphql', { query, variables });
  }
}
