// @vitest-environment node
// The HTML form routes (api/routes/forms.ts, over api/forms.ts): POST /login, /logout and /profile as a browser
// posts them without JavaScript, and that they run the very functions the JSON API runs (api/accounts.ts).
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccounts } from '../../../api/accounts';
import { testApiConfig } from '../../../api/config';
import { fillLoginTemplate, parseFormBody, shellForSignedIn } from '../../../api/forms';
import { apiPlugin } from '../../../api/plugin';
import { formsPlugin } from '../../../api/routes/forms';
import { FORM_PLACEHOLDERS, FORM_STATE_ID } from '../../../core/formState';
import { type ApiClient, apiClient, backends, ORIGIN, useApi } from '../../support/apiHarness';

const TEMPLATE = `<!doctype html><html><body><div id="root"><div role="alert">${FORM_PLACEHOLDERS.error}</div><input name="email" value="${FORM_PLACEHOLDERS.email}"></div></body></html>`;
const FORM = 'application/x-www-form-urlencoded';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('parseFormBody and fillLoginTemplate', () => {
  it('takes the first of a repeated field and decodes as a browser encodes', () => {
    expect(parseFormBody('email=a%40b.c&email=other&password=p+w%26')).toEqual({
      email: 'a@b.c',
      password: 'p w&',
    });
    expect(parseFormBody('__proto__=x')).toEqual({ ['__proto__']: 'x' });
    expect(Object.getPrototypeOf(parseFormBody('__proto__=x'))).toBe(Object.prototype);
  });

  it('escapes the message and the email, and carries them as JSON that cannot end its block', () => {
    const html = fillLoginTemplate(TEMPLATE, {
      form: 'login',
      error: 'a <b> & "c"',
      email: '"><script>x</script>',
    });
    expect(html).toContain('<div role="alert">a &#60;b&#62; &#38; &#34;c&#34;</div>');
    expect(html).toContain('value="&#34;&#62;&#60;script&#62;x&#60;/script&#62;"');
    expect(html).not.toContain('<script>x');
    const block = new RegExp(`<script type="application/json" id="${FORM_STATE_ID}">(.*?)</script>`).exec(
      html,
    );
    expect(JSON.parse(block?.[1] ?? '')).toEqual({
      form: 'login',
      error: 'a <b> & "c"',
      email: '"><script>x</script>',
    });
    // The state block goes last in the body, after the page it describes.
    expect(html).toMatch(
      /<\/div><script type="application\/json" id="[^"]+">[^<]*<\/script><\/body><\/html>$/,
    );
  });
});

describe('fillLoginTemplate and replacement patterns', () => {
  it("puts `$&`, `$'`, `` $` `` and `$1` in an email or a message into the page as they were typed", () => {
    const typed = "a$&b$'c$`d$1e$$f@example.com";
    const page = TEMPLATE;
    const html = fillLoginTemplate(page, { form: 'login', error: `Wrong $& for $'x'`, email: typed });
    expect(html.match(/<!doctype html>/g)).toHaveLength(1);
    expect(html).toContain(`value="${typed.replaceAll('&', '&#38;').replaceAll("'", '&#39;')}"`);
    expect(html).toContain('<div role="alert">Wrong $&#38; for $&#39;x&#39;</div>');
    expect(html.length).toBeLessThan(page.length + 400);
  });
});

describe.each(backends())('form routes on %s', (kind) => {
  const { database, open } = useApi(kind, { loginTemplate: async () => TEMPLATE });
  let api: ApiClient;
  const post = (
    url: string,
    payload: string,
    headers: Record<string, string | undefined> = {},
    cookie?: string,
  ) =>
    api.request({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': FORM, ...headers },
      ...(cookie ? { cookie } : {}),
    });
  const signInForm = (fields: Record<string, string>, query = '') => post(`/login${query}`, form(fields));

  beforeEach(async () => {
    api = await open();
  });

  it('signs in with a 303 to /home, a fresh HTTP-only session cookie, and no cache', async () => {
    const res = await signInForm({ email: 'demo@example.com', password: 'demo-password' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/home');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['set-cookie'])).toMatch(
      /^sid=[\w-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const session = await api.request({
      method: 'GET',
      url: '/api/session',
      cookie: String(res.headers['set-cookie']).split(';')[0],
    });
    expect(session.json().user.email).toBe('demo@example.com');
  });

  it('returns to a safe redirect, and to /home from an unsafe one', async () => {
    const ok = { email: 'demo@example.com', password: 'demo-password' };
    expect((await signInForm(ok, '?redirect=%2Fprofile')).headers.location).toBe('/profile');
    expect((await signInForm(ok, '?redirect=%2Fcampaign%2F1%3Ftab%3Dx')).headers.location).toBe(
      '/campaign/1?tab=x',
    );
    for (const hostile of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      '/..//evil.example',
      '/login',
    ]) {
      const res = await signInForm(ok, `?redirect=${encodeURIComponent(hostile)}`);
      expect(res.headers.location, hostile).toBe('/home');
    }
  });

  it('a wrong password is a 401 with the message and the email in the page, never the password', async () => {
    const res = await signInForm({ email: 'demo@example.com', password: 'secret-guess' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toContain('<div role="alert">Incorrect email or password</div>');
    expect(res.body).toContain('value="demo@example.com"');
    expect(res.body).not.toContain('secret-guess');
    const block = new RegExp(`id="${FORM_STATE_ID}">(.*?)</script>`).exec(res.body);
    expect(JSON.parse(block?.[1] ?? '')).toEqual({
      form: 'login',
      error: 'Incorrect email or password',
      email: 'demo@example.com',
    });
  });

  it('without a built page, a failed sign-in is a plain page with the message and a link back', async () => {
    const plain = await apiClient(database());
    try {
      const res = await plain.request({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': FORM },
        payload: form({ email: 'demo@example.com', password: 'secret-guess' }),
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body><p role="alert">Incorrect email or password</p><p><a href="/login">Back to sign in</a></p></body></html>',
      );
    } finally {
      await plain.close();
    }
  });

  it('a failure on the server is a logged 500 with a sentence for the visitor', async () => {
    const errors: unknown[][] = [];
    const logged = await apiClient(database(), {
      loginTemplate: async () => TEMPLATE,
      log: { error: (...args: unknown[]) => errors.push(args) },
    });
    await database().db.schema.alterTable('users').renameTo('users_gone').execute();
    try {
      const res = await logged.request({
        method: 'POST',
        url: '/login?redirect=%2Fprofile',
        headers: { 'content-type': FORM },
        payload: form({ email: 'demo@example.com', password: 'demo-password' }),
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain(
        '<div role="alert">Something went wrong on our side. Please try again.</div>',
      );
      expect(errors.map((args) => args[0])).toEqual(['[forms] POST /login failed:']);
    } finally {
      await database().db.schema.alterTable('users_gone').renameTo('users').execute();
      await logged.close();
    }
  });

  it('sets a Secure __Host- cookie when the site is served over HTTPS', async () => {
    const secure = await apiClient(database(), { config: { secureCookie: true } });
    try {
      const res = await secure.request({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': FORM },
        payload: form({ email: 'demo@example.com', password: 'demo-password' }),
      });
      expect(res.statusCode).toBe(303);
      expect(String(res.headers['set-cookie'])).toMatch(
        /^__Host-sid=[\w-]{43}; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
    } finally {
      await secure.close();
    }
  });

  it('refuses a cross-site post (403) before reading it, and sets nothing', async () => {
    const ok = form({ email: 'demo@example.com', password: 'demo-password' });
    const cases: Record<string, string | undefined>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'http://sub.localhost' },
      { 'sec-fetch-site': undefined, origin: 'https://evil.example' },
      { 'sec-fetch-site': undefined, origin: undefined },
    ];
    for (const headers of cases) {
      const res = await post('/login', ok, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toContain('cross-origin requests are refused');
    }
    const cookie = await api.signIn();
    expect((await post('/logout', '', { 'sec-fetch-site': 'cross-site' }, cookie)).statusCode).toBe(403);
    expect(
      (await post('/profile', form({ displayName: 'Mallory' }), { 'sec-fetch-site': 'cross-site' }, cookie))
        .statusCode,
    ).toBe(403);
    const profile = await api.request({ method: 'GET', url: '/api/profile', cookie });
    expect(profile.json().profile.displayName).toBe('Demo User');
  });

  it('takes only form encoding (415 for JSON, multipart, text/plain or none)', async () => {
    for (const type of ['application/json', 'multipart/form-data; boundary=x', 'text/plain', undefined]) {
      const res = await post('/login', '{"email":"demo@example.com","password":"demo-password"}', {
        'content-type': type,
      });
      expect(res.statusCode, String(type)).toBe(415);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body, String(type)).toContain(
        '<div role="alert">Send the form as application/x-www-form-urlencoded.</div>',
      );
    }
    expect(
      (
        await post('/login', form({ email: 'demo@example.com', password: 'demo-password' }), {
          'content-type': `${FORM}; charset=UTF-8`,
        })
      ).statusCode,
    ).toBe(303);
    const spaced = await post('/login', form({ email: 'demo@example.com', password: 'demo-password' }), {
      'content-type': 'Application/X-WWW-Form-Urlencoded ; charset=UTF-8',
    });
    expect(spaced.statusCode).toBe(303);
  });

  it('a body that does not match its Content-Length is a 400 asking to try again', async () => {
    const res = await post('/login', form({ email: 'demo@example.com', password: 'x' }), {
      'content-length': '2',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<div role="alert">The form could not be read. Please try again.</div>');
  });

  it('missing or over-long fields are a 400 with a clear message', async () => {
    const missing = await signInForm({ email: 'demo@example.com' });
    expect(missing.statusCode).toBe(400);
    // The sign-in form's messages (core/forms.ts), as the page and the JSON route word them.
    expect(missing.body).toContain('Enter your password.');
    expect(missing.body).toContain('value="demo@example.com"');
    expect((await signInForm({ password: 'x' })).statusCode).toBe(400);
    expect((await signInForm({ email: '   ', password: 'x' })).statusCode).toBe(400);
    const longEmail = await signInForm({ email: `${'a'.repeat(250)}@x.example`, password: 'x' });
    expect(longEmail.statusCode).toBe(400);
    expect(longEmail.body).toContain('Email must be at most 254 characters.');
    // An address longer than any real one is not echoed back.
    expect(longEmail.body).toContain('value=""');
    const empty = await signInForm({ email: 'demo@example.com', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('<div role="alert">Enter your password.</div>');
    const noAt = await signInForm({ email: 'demo', password: 'x' });
    expect(noAt.statusCode).toBe(400);
    expect(noAt.body).toContain('<div role="alert">Enter an email address like name@example.com.</div>');
    // At the limits exactly: checked (and refused as wrong), and the email is echoed.
    const email254 = `${'a'.repeat(244)}@x.example`;
    expect(email254).toHaveLength(254);
    const atLimit = await signInForm({ email: email254, password: 'p'.repeat(1024) });
    expect(atLimit.statusCode).toBe(401);
    expect(atLimit.body).toContain(`value="${email254}"`);
    const longPassword = await signInForm({ email: 'demo@example.com', password: 'p'.repeat(1025) });
    expect(longPassword.statusCode).toBe(400);
    expect(longPassword.body).toContain('Password must be at most 1024 characters.');
    const tooBig = await post('/login', form({ email: 'demo@example.com', password: 'p'.repeat(70_000) }));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.body).toContain('The form is too large to send.');
  });

  it('rate-limits with a 429 and Retry-After, counting form and JSON attempts together', async () => {
    const email = 'limited@example.com';
    for (let i = 0; i < 5; i++) {
      expect((await signInForm({ email, password: `guess ${i}` })).statusCode).toBe(401);
      const json = await api.request({
        method: 'POST',
        url: '/api/session',
        payload: { email, password: `json ${i}` },
      });
      expect(json.statusCode).toBe(401);
    }
    const refused = await signInForm({ email, password: 'one more' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many sign-in attempts.');
    expect(refused.body).toContain(`value="${email}"`);
  });

  it('signs out with a 303 to /login and a cleared cookie; the session is over', async () => {
    const cookie = await api.signIn();
    const res = await post('/logout', '', {}, cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login');
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=; Max-Age=0;/);
    expect((await api.request({ method: 'GET', url: '/api/session', cookie })).json().user).toBeNull();
  });

  it('saves the display name with a 303 to /profile; refuses bad names (400) and ended sessions (401)', async () => {
    const cookie = await api.signIn();
    const res = await post('/profile', form({ displayName: '  Dee  ' }), {}, cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/profile');
    expect(
      (await api.request({ method: 'GET', url: '/api/profile', cookie })).json().profile.displayName,
    ).toBe('Dee');
    expect((await post('/profile', form({ displayName: ' ' }), {}, cookie)).statusCode).toBe(400);
    expect((await post('/profile', form({ displayName: 'x'.repeat(61) }), {}, cookie)).statusCode).toBe(400);
    expect((await post('/profile', form({ displayName: 'x'.repeat(1001) }), {}, cookie)).statusCode).toBe(
      400,
    );
    expect((await post('/profile', form({}), {}, cookie)).statusCode).toBe(400);
    expect((await post('/profile', form({ displayName: 'Nobody' }))).statusCode).toBe(401);
    // Only the sign-in form has a page to show again: the others answer the message as text.
    for (const [fields, message] of [
      [{}, 'Display name is required and must be text.'],
      [{ displayName: 'x'.repeat(1001) }, 'Display name must be between 1 and 60 characters.'],
    ] as const) {
      const refused = await post('/profile', form(fields), {}, cookie);
      expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.body).toBe(message);
    }
  });

  it('takes each form’s post on its page’s path with a trailing slash too', async () => {
    const signedIn = await post(
      '/login/?redirect=%2Fprofile',
      form({ email: 'demo@example.com', password: 'demo-password' }),
    );
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/profile');
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    expect((await post('/profile/', form({ displayName: 'Slash' }), {}, cookie)).statusCode).toBe(303);
    expect((await post('/logout/', '', {}, cookie)).statusCode).toBe(303);
    const failed = await post('/login/', form({ email: 'demo@example.com', password: 'wrong' }));
    expect(failed.statusCode).toBe(401);
    expect(failed.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('refuses a display name with direction marks or zero-width spaces, by form and by JSON alike', async () => {
    const cookie = await api.signIn();
    const message =
      'Display name must not contain invisible formatting characters (direction marks or zero-width spaces).';
    for (const name of ['Sam\u202e\u200bX', 'Sam\u200fX', 'A\u2066B\u2069', 'zero\u200bwidth', 'b\ufeffom']) {
      const byForm = await post('/profile', form({ displayName: name }), {}, cookie);
      expect(byForm.statusCode).toBe(400);
      expect(byForm.body).toBe(message);
      const byJson = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        payload: { displayName: name },
        cookie,
      });
      expect(byJson.statusCode).toBe(400);
      expect(byJson.json()).toEqual({ message, fields: { displayName: message } });
    }
    // Joiners stay: emoji sequences and scripts that need them.
    for (const name of ['👩\u200d💻 Dee', 'می\u200cخواهم'])
      expect((await post('/profile', form({ displayName: name }), {}, cookie)).statusCode).toBe(303);
  });

  it('gives a signed-in visitor without JavaScript the profile and sign-out forms in the shell', async () => {
    const shell = '<body><div id="root"></div><noscript><p>Needs JavaScript.</p></noscript></body>';
    const accounts = createAccounts({ db: database().db, config: testApiConfig() });
    expect(await shellForSignedIn(shell, accounts, undefined)).toBeUndefined();
    expect(await shellForSignedIn(shell, accounts, 'sid=unknown')).toBeUndefined();
    const cookie = await api.signIn();
    const html = await shellForSignedIn(shell, accounts, cookie);
    expect(html).toContain('<form method="post" action="/profile">');
    expect(html).toContain('value="Demo User"');
    expect(html).toContain('<form method="post" action="/logout">');
    expect(html).toMatch(/<\/form><\/div><\/noscript><\/body>$/);
    expect(html).toBe(
      '<body><div id="root"></div><noscript><p>Needs JavaScript.</p><div class="boot-forms"><p>Signed in as demo@example.com.</p>' +
        '<form method="post" action="/profile"><label for="noscript-name">Display name</label>' +
        '<input id="noscript-name" name="displayName" autocomplete="nickname" maxlength="120" value="Demo User">' +
        '<button type="submit">Save changes</button></form>' +
        '<form method="post" action="/profile/password">' +
        '<input type="hidden" name="username" autocomplete="username" value="demo@example.com">' +
        '<label for="noscript-current">Current password</label>' +
        '<input id="noscript-current" type="password" name="currentPassword" autocomplete="current-password" required>' +
        '<label for="noscript-new">New password</label>' +
        '<input id="noscript-new" type="password" name="newPassword" autocomplete="new-password" minlength="8" maxlength="128" required>' +
        '<button type="submit">Change password</button></form>' +
        '<form method="post" action="/profile/delete"><label for="noscript-delete">Password, to delete your account</label>' +
        '<input id="noscript-delete" type="password" name="password" autocomplete="current-password" required>' +
        '<button type="submit">Delete account</button></form>' +
        '<form method="post" action="/logout"><button type="submit">Sign out</button></form></div></noscript></body>',
    );
    // A shell without a <noscript> notice is left as built.
    expect(await shellForSignedIn('<body><div id="root"></div></body>', accounts, cookie)).toBeUndefined();
  });
});

describe.each(backends())('one function, two adapters, on %s', (kind) => {
  const { database } = useApi(kind);

  /** The JSON API under /api and the form routes at the root, over the same accounts functions. */
  async function registerApiAndForms(
    app: FastifyInstance,
    config: ReturnType<typeof testApiConfig>,
    accounts: ReturnType<typeof createAccounts>,
  ) {
    await app.register(apiPlugin, {
      prefix: '/api',
      db: database().db,
      config,
      accounts,
      log: { error: () => {} },
    });
    await app.register(formsPlugin, {
      accounts,
      bodyLimitBytes: config.bodyLimitBytes,
      loginTemplate: async () => TEMPLATE,
    });
  }

  it('run on a server that has registered @fastify/cookie itself', async () => {
    const config = testApiConfig();
    const accounts = createAccounts({ db: database().db, config });
    const app = Fastify();
    await app.register(fastifyCookie);
    await registerApiAndForms(app, config, accounts);
    const same = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
    try {
      const html = await app.inject({
        method: 'POST',
        url: '/login',
        headers: { ...same, 'content-type': FORM },
        payload: form({ email: 'demo@example.com', password: 'demo-password' }),
      });
      expect(html.statusCode).toBe(303);
      const cookie = String(html.headers['set-cookie']).split(';')[0] ?? '';
      const session = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });
      expect(session.json().user.id).toBe('u1');
    } finally {
      await app.close();
    }
  });

  it('the JSON route and the form route both sign in, out and save through the same accounts functions', async () => {
    const config = testApiConfig();
    const accounts = createAccounts({ db: database().db, config });
    const signIn = vi.spyOn(accounts, 'signIn');
    const signOut = vi.spyOn(accounts, 'signOut');
    const saveProfile = vi.spyOn(accounts, 'saveProfile');
    const checkOrigin = vi.spyOn(accounts, 'checkOrigin');
    const app = Fastify();
    await registerApiAndForms(app, config, accounts);
    const same = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
    try {
      const json = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: same,
        payload: { email: 'demo@example.com', password: 'demo-password' },
      });
      const html = await app.inject({
        method: 'POST',
        url: '/login',
        headers: { ...same, 'content-type': FORM },
        payload: form({ email: 'demo@example.com', password: 'demo-password' }),
      });
      expect([json.statusCode, html.statusCode]).toEqual([200, 303]);
      expect(signIn).toHaveBeenCalledTimes(2);
      const cookie = String(html.headers['set-cookie']).split(';')[0] ?? '';
      await app.inject({
        method: 'PATCH',
        url: '/api/profile',
        headers: { ...same, cookie },
        payload: { displayName: 'A' },
      });
      await app.inject({
        method: 'POST',
        url: '/profile',
        headers: { ...same, cookie, 'content-type': FORM },
        payload: form({ displayName: 'B' }),
      });
      expect(saveProfile).toHaveBeenCalledTimes(2);
      await app.inject({ method: 'DELETE', url: '/api/session', headers: { ...same, cookie } });
      await app.inject({
        method: 'POST',
        url: '/logout',
        headers: { ...same, cookie, 'content-type': FORM },
        payload: '',
      });
      expect(signOut).toHaveBeenCalledTimes(2);
      expect(checkOrigin).toHaveBeenCalledTimes(6);
    } finally {
      await app.close();
    }
  });
});
