import { csrfField, errorBox, escapeHtml, layout, notice, type Viewer } from './layout';

export function loginPage(opts: { csrfToken: string; next: string; error?: string; message?: string; email?: string }): string {
  return layout({
    title: 'Sign in',
    section: 'login',
    viewer: null,
    body: `${opts.error ? errorBox(opts.error) : ''}${opts.message ? notice(opts.message) : ''}
<form method="post" action="/account/login/">
  <input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(opts.csrfToken)}">
  <input type="hidden" name="next" value="${escapeHtml(opts.next)}">
  <p><label class="field" for="id_email">Email</label> <input id="id_email" name="email" type="email" required maxlength="254" autocomplete="username" value="${escapeHtml(opts.email ?? '')}"></p>
  <p><label class="field" for="id_password">Password</label> <input id="id_password" name="password" type="password" required autocomplete="current-password"></p>
  <p><button type="submit">Sign in</button></p>
</form>
<p class="hint">Scripts sign in with <code>POST /api/v1/auth/login/</code> and send an API key; this page is for people.</p>`,
  });
}

/** GET /account/logout/: a button, since signing out is a POST with the CSRF token. */
export function logoutPage(viewer: Viewer): string {
  return layout({
    title: 'Sign out',
    section: 'login',
    viewer,
    body: `<form method="post" action="/account/logout/">${csrfField(viewer.csrfToken)}
<p>Signed in as <strong>${escapeHtml(viewer.email)}</strong>.</p><p><button type="submit">Sign out</button></p></form>`,
  });
}
