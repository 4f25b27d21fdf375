import { type FormEvent, useEffect, useState } from 'react';
import { type FieldErrors, formErrors, signInForm } from '../../core/forms';
import { RETURN_TO_PARAM, safeReturnTo } from '../../core/returnTo';
import { readQuery } from '../../core/routes';
import { css } from '../../styled-system/css';
import { alert, button } from '../../styled-system/recipes';
import { useSessionView } from '../platform/appActor';
import { forgetFormState, initialFormState, typedBeforeHydration } from '../platform/formState';
import { afterInput } from '../platform/tasks';
import { Field } from '../ui/Field';
import { PageHeader } from '../ui/PageHeader';
import { card } from '../ui/styles';
import type { AnyPage, PageDefinition, PageProps } from './types';

/** What the API would refuse, checked before asking: the sign-in form's one schema and its messages. */
function validate(email: string, password: string): FieldErrors<'email' | 'password'> {
  return formErrors(signInForm, { email: email.trim(), password });
}

function LoginPage({ location }: PageProps<undefined>) {
  const { signingIn, error: sessionError, signIn } = useSessionView();
  // A sign-in posted before the app ran comes back from the server (api/forms.ts) with its message and the
  // email typed: the first render shows them as the server sent them, so hydration matches.
  const [posted] = useState(() => initialFormState('login'));
  const [email, setEmail] = useState(() => typedBeforeHydration('login-email') || (posted?.email ?? ''));
  const [password, setPassword] = useState(() => typedBeforeHydration('login-password'));
  const [errors, setErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const [postedError, setPostedError] = useState(posted?.error ?? null);
  const serverError = sessionError ?? postedError;
  const returnTo = readQuery(location, RETURN_TO_PARAM);
  useEffect(() => forgetFormState(), []);

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
    <div className={css({ display: 'grid', placeItems: 'center', py: { base: '4', md: '10' } })}>
      <div className={`${card} ${css({ w: 'full', maxW: 'md', display: 'grid', gap: '5' })}`}>
        <PageHeader
          title="Sign in"
          description={
            returnTo
              ? `You will go back to ${safeReturnTo(returnTo)} afterwards.`
              : 'Welcome back to campaign-web.'
          }
        />
        {serverError ? (
          <div role="alert" className={alert({ tone: 'error' })}>
            {serverError}
          </div>
        ) : null}
        {/* Works before the app has started and without JavaScript: the server's form route (api/forms.ts) takes
            the post, to this page's own URL so its `redirect` query comes along. POST, so the password is never
            in a URL, a history entry or a server log. */}
        <form
          method="post"
          noValidate
          onSubmit={submit}
          className={css({ display: 'grid', gap: '4' })}
          aria-busy={signingIn}
        >
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
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Demo account: <code>demo@example.com</code> / <code>demo-password</code>
        </p>
      </div>
    </div>
  );
}

export default { component: LoginPage } satisfies PageDefinition<undefined> as AnyPage;
