export interface PageAnswer {
  status: number;
  text: string;
  location: string | null;
  headers: Headers;
}

/** A form-posting client for the account pages: keeps cookies and never follows redirects (so each Location can
 * be read), and posts each form with the CSRF token of the last page that had one. */
export class FormClient {
  constructor(readonly baseUrl: string) {}

  readonly cookies = new Map<string, string>();
  readonly answers: PageAnswer[] = [];

  async send(method: 'GET' | 'POST', path: string, fields?: Record<string, string | string[]>, headers: Record<string, string> = {}) {
    const body = fields ? new URLSearchParams() : undefined;
    for (const [name, value] of Object.entries(fields ?? {})) for (const one of [value].flat()) body!.append(name, one);
    const response = await fetch(this.baseUrl + path, {
      method,
      redirect: 'manual',
      body: body?.toString(),
      headers: {
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...headers,
      },
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (!value || /expires=Thu, 01 Jan 1970/i.test(setCookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const answer = { status: response.status, text: await response.text(), location: response.headers.get('location'), headers: response.headers };
    this.answers.push(answer);
    return answer;
  }

  get(path: string) {
    return this.send('GET', path);
  }

  /** Posts a form as the page would: with the CSRF token of the last page shown. */
  async post(path: string, fields: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) {
    return this.send('POST', path, { csrfmiddlewaretoken: this.token ?? '', ...fields }, headers);
  }

  get token(): string | undefined {
    for (let i = this.answers.length - 1; i >= 0; i -= 1) {
      const found = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(this.answers[i].text);
      if (found) return found[1];
    }
    return undefined;
  }
}

/** The plaintext of a key in a page that shows one. */
export const newKeyOf = (html: string) => /data-testid="new-key">([^<]+)</.exec(html)?.[1];
