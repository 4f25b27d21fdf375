import { type FormEvent, useEffect, useState } from 'react';
import type { DemoAccountsResponse, SignUpResponse } from '../../api/types';
import { type FieldErrors, formErrors, signInForm } from '../../core/forms';
import { DISPLAY_NAME_LENGTH_MESSAGE, DISPLAY_NAME_MAX, displayNameLength } from '../../core/limits';
import { DEFAULT_RETURN_TO, RETURN_TO_PARAM, safeReturnTo } from '../../core/returnTo';
import { readQuery } from '../../core/routes';
import { css } from '../../styled-system/css';
import { alert, button } from '../../styled-system/recipes';
import { ApiError, apiRequest } from '../platform/api';
import { useSessionView } from '../platform/appActor';
import { forgetFormState, initialFormState, typedBeforeHydration } from '../platform/formState';
import { afterInput } from '../platform/tasks';
import { Field } from '../ui/Field';
import { Link } from '../ui/Link';
import { PageHeader } from '../ui/PageHeader';
import { card } from '../ui/styles';
import type { AnyPage, PageDefinition, PageProps } from './types';

interface SignUpErrors {
  readonly email?: string;
  readonly displayName?: string;
  readonly password?: string;
}

/** The bounds the API holds new passwords to (api/passwords.ts): checked here first, to say so at once. */
const PASSWORD_MIN = 8;
const PASSWORD_RECOMMENDED = 15;
const PASSWORD_MAX = 128;

function emailError(email: string): string | undefined {
  if (email.trim() === '') return 'Enter your email address.';
  if (!email.includes('@')) return 'Enter an email address like name@example.com.';
  return undefined;
}

/** What the API would refuse, checked before asking: the sign-in form's one schema and its messages. */
function validate(email: string, password: string): FieldErrors<'email' | 'password'> {
  return formErrors(signInForm, { email: email.trim(), password });
}

function validateSignUp(email: string, displayName: string, password: string): SignUpErrors {
  const found = emailError(email);
  const nameLength = displayNameLength(displayName.trim());
  const length = [...password.normalize('NFC')].length;
  return {
    ...(found ? { email: found } : {}),
    ...(nameLength < 1 || nameLength > DISPLAY_NAME_MAX ? { displayName: DISPLAY_NAME_LENGTH_MESSAGE } : {}),
    ...(password === ''
      ? { password: 'Enter a password.' }
      : length < PASSWORD_MIN
        ? {
            password: `Password must be at least ${PASSWORD_MIN} characters (${PASSWORD_RECOMMENDED} or more is better).`,
          }
        : length > PASSWORD_MAX
          ? { password: `Password must be at most ${PASSWORD_MAX} characters.` }
          : {}),
  };
}

const FIELD_ORDER = ['email', 'displayName', 'password'] as const;

/** The sign-in page's data: the demo accounts the database has (none in a production deployment). */
type LoginData = DemoAccountsResponse;

function LoginPage({ location, data }: PageProps<LoginData>) {
  // A form posted before the app ran comes back from the server (api/routes/forms.ts) with its message and what
  // was typed: the first render shows them as the server sent them, so hydration matches.
  const [posted] = useState(() => initialFormState('login') ?? initialFormState('signup'));
  // The query says the mode; the build renders the sign-up's template without one, from its posted state. The
  // posted state counts only at the URL it came with: a link to the other mode leaves it behind.
  const [postedAt] = useState(location.search);
  const fromPost = posted !== null && postedAt === location.search ? posted : null;
  const signUp = fromPost ? fromPost.form === 'signup' : readQuery(location, 'mode') === 'signup';
  return signUp ? (
    <SignUpForm location={location} posted={fromPost?.form === 'signup' ? fromPost : null} />
  ) : (
    <SignInForm
      location={location}
      posted={fromPost?.form === 'login' ? fromPost : null}
      demo={data?.accounts ?? []}
    />
  );
}

type Posted = ReturnType<typeof initialFormState>;

function Frame({
  title,
  description,
  children,
}: {
  readonly title: string;
  readonly description: string;
  readonly children: React.ReactNode;
}) {
  return (
    <div className={css({ display: 'grid', placeItems: 'center', py: { base: '4', md: '10' } })}>
      <div className={`${card} ${css({ w: 'full', maxW: 'md', display: 'grid', gap: '5' })}`}>
        <PageHeader title={title} description={description} />
        {children}
      </div>
    </div>
  );
}

const formLayout = css({ display: 'grid', gap: '4' });
const small = css({ fontSize: 'sm', color: 'fg.muted' });
const link = css({ color: 'accent.text', textDecoration: 'underline' });

function SignInForm({
  location,
  posted,
  demo,
}: {
  readonly location: PageProps<LoginData>['location'];
  readonly posted: Posted;
  readonly demo: LoginData['accounts'];
}) {
  const { signingIn, error: sessionError, signIn } = useSessionView();
  const [email, setEmail] = useState(() => typedBeforeHydration('login-email') || (posted?.email ?? ''));
  const [password, setPassword] = useState(() => typedBeforeHydration('login-password'));
  const [errors, setErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const [postedError, setPostedError] = useState(posted?.error ?? null);
  const serverError = sessionError ?? postedError;
  const returnTo = readQuery(location, RETURN_TO_PARAM);
  useEffect(() => forgetFormState(), []);
  const signUpPath = `/login?mode=signup${returnTo ? `&${RETURN_TO_PARAM}=${encodeURIComponent(returnTo)}` : ''}`;

  function submit(event: FormEvent) {
    event.preventDefault();
    // Only when they change: a state update in the submit's task renders the page before the frame it asked for.
    if (postedError !== null) setPostedError(null);
    const found = validate(email, password);
    if (found.email !== errors.email || found.password !== errors.password) setErrors(found);
    if (found.email || found.password) {
      document.getElementById(found.email ? 'login-email' : 'login-password')?.focus();
      return;
    }
    // After the frame the submit asked for: the session's step and render are no part of its task.
    afterInput(() => signIn(email.trim(), password));
  }

  return (
    <Frame
      title="Sign in"
      description={
        returnTo
          ? `You will go back to ${safeReturnTo(returnTo)} afterwards.`
          : 'Welcome back to campaign-web.'
      }
    >
      {serverError ? (
        <div role="alert" className={alert({ tone: 'error' })}>
          {serverError}
        </div>
      ) : null}
      {/* Works before the app has started and without JavaScript: the server's form route (api/forms.ts) takes
          the post, to this page's own URL so its `redirect` query comes along. POST, so the password is never
          in a URL, a history entry or a server log. */}
      <form method="post" noValidate onSubmit={submit} className={formLayout} aria-busy={signingIn}>
        <Field
          id="login-email"
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
        <Field
          id="login-password"
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
        />
        <button type="submit" className={button()} disabled={signingIn}>
          {signingIn ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className={small}>
        New here?{' '}
        <Link to={signUpPath} className={link}>
          Create an account
        </Link>
      </p>
      {demo.length > 0 ? (
        <p className={small}>
          {demo.length === 1 ? 'Demo account' : 'Demo accounts'}:{' '}
          {demo.map((account, index) => (
            <span key={account.email}>
              {index > 0 ? ', ' : ''}
              <code>{account.email}</code> / <code>{account.password}</code>
            </span>
          ))}
        </p>
      ) : null}
    </Frame>
  );
}

function SignUpForm({
  location,
  posted,
}: {
  readonly location: PageProps<LoginData>['location'];
  readonly posted: Posted;
}) {
  const [email, setEmail] = useState(() => typedBeforeHydration('signup-email') || (posted?.email ?? ''));
  const [displayName, setDisplayName] = useState(
    () => typedBeforeHydration('signup-name') || (posted?.displayName ?? ''),
  );
  const [password, setPassword] = useState(() => typedBeforeHydration('signup-password'));
  const [errors, setErrors] = useState<SignUpErrors>({});
  // A refusal of the form posted without JavaScript is in the alert, as the server rendered it.
  const [formError, setFormError] = useState<string | null>(posted?.error || null);
  const [busy, setBusy] = useState(false);
  const returnTo = readQuery(location, RETURN_TO_PARAM);
  useEffect(() => forgetFormState(), []);
  const signInPath = `/login${returnTo ? `?${RETURN_TO_PARAM}=${encodeURIComponent(returnTo)}` : ''}`;
  const idOf = (field: keyof SignUpErrors) => (field === 'displayName' ? 'signup-name' : `signup-${field}`);

  function showErrors(found: SignUpErrors) {
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) document.getElementById(idOf(first))?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found = validateSignUp(email, displayName, password);
    if (found.email || found.displayName || found.password) {
      showErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await apiRequest<SignUpResponse>('/account', {
        method: 'POST',
        body: { email: email.trim(), displayName: displayName.trim(), password },
      });
      // A whole new page: the app starts again signed in, as after the form post without JavaScript.
      window.location.assign(safeReturnTo(returnTo ?? DEFAULT_RETURN_TO));
    } catch (error) {
      setBusy(false);
      setPassword(error instanceof ApiError && error.statusCode === 409 ? password : '');
      const field = error instanceof ApiError ? fieldOfError(error) : undefined;
      const message = error instanceof Error ? error.message : 'Something went wrong. Please try again.';
      if (field) showErrors({ [field]: message });
      else {
        setFormError(message);
        document.getElementById('signup-alert')?.focus();
      }
    }
  }

  return (
    <Frame
      title="Create an account"
      description="Start, follow and fund the projects that make your street better."
    >
      <div
        id="signup-alert"
        tabIndex={-1}
        role="alert"
        className={`${alert({ tone: 'error' })} ${css({ _empty: { display: 'none' } })}`}
      >
        {formError ?? ''}
      </div>
      {/* Posted to the server (api/routes/forms.ts) when the app is not running: the same sign-up as the JSON
          route's. The `mode` query tells the route it is the sign-up. */}
      <form
        method="post"
        action={`/login?mode=signup${returnTo ? `&${RETURN_TO_PARAM}=${encodeURIComponent(returnTo)}` : ''}`}
        noValidate
        onSubmit={submit}
        className={formLayout}
        aria-busy={busy}
      >
        <Field
          id="signup-email"
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
        <Field
          id="signup-name"
          label="Display name"
          name="displayName"
          autoComplete="nickname"
          maxLength={DISPLAY_NAME_MAX * 2}
          value={displayName}
          onChange={(event) => setDisplayName(event.target.value)}
          error={errors.displayName}
          hint={`How other people see you. Up to ${DISPLAY_NAME_MAX} characters.`}
        />
        <Field
          id="signup-password"
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
          hint={`At least ${PASSWORD_MIN} characters; ${PASSWORD_RECOMMENDED} or more is better. A passphrase of a few words is easy to remember.`}
        />
        <button type="submit" className={button()} disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className={small}>
        Already have an account?{' '}
        <Link to={signInPath} className={link}>
          Sign in
        </Link>
      </p>
    </Frame>
  );
}

/** The field an API refusal is about (api/errors.ts puts it beside the message). */
function fieldOfError(error: ApiError): keyof SignUpErrors | undefined {
  return FIELD_ORDER.find((name) => name === error.field);
}

export default {
  component: LoginPage,
  // The demo accounts are a hint, not the page: without them (the server renders the form templates before its
  // API is up) the page is the form alone, never an error page.
  loader: async ({ signal }) =>
    apiRequest<LoginData>('/demo-accounts', { signal }).catch((error: unknown) => {
      if (signal.aborted) throw error;
      return { accounts: [] };
    }),
} satisfies PageDefinition<LoginData> as AnyPage;
