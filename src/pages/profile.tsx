import { type FormEvent, useRef, useState } from 'react';
import { displayNameForm, formErrors } from '../../core/forms';
import { DISPLAY_NAME_MAX } from '../../core/limits';
import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { ApiError, apiRequest } from '../platform/api';
import { useSessionView } from '../platform/appActor';
import { afterInput } from '../platform/tasks';
import { CardSection } from '../ui/CardSection';
import { LazyColorModeSwitch } from '../ui/ColorModeSwitch.lazy';
import { Field } from '../ui/Field';
import { PageHeader } from '../ui/PageHeader';
import { SignOutForm } from '../ui/SignOutForm';
import { stack } from '../ui/styles';
import type { AnyPage, PageDefinition } from './types';

const settingsWidth = css({ maxW: '2xl' });

function ProfilePage() {
  const {
    user,
    savingProfile: saving,
    profileSaved: saved,
    profileError: serverError,
    saveProfile,
  } = useSessionView();
  const [displayName, setDisplayName] = useState(user?.displayName ?? '');
  const [error, setError] = useState<string | null>(null);

  function save(event: FormEvent) {
    event.preventDefault();
    const trimmed = displayName.trim();
    // What the API would refuse, checked before asking: the display-name form's one schema and its message.
    const refused = formErrors(displayNameForm, { displayName: trimmed }).displayName;
    if (refused) {
      setError(refused);
      return;
    }
    setError(null);
    // After the frame the submit asked for: the session's step and render are no part of its task.
    afterInput(() => saveProfile(trimmed));
  }

  return (
    <div className={stack}>
      <PageHeader title="Your profile" description="How other people see you on campaign-web." />
      <CardSection id="details-title" title="Details" spacing="roomy" className={settingsWidth}>
        <dl className={css({ display: 'grid', gap: '1' })}>
          <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>Email</dt>
          <dd className={css({ color: 'fg.highlighted', fontWeight: 'medium' })}>{user?.email}</dd>
        </dl>
        {/* Also a plain form: posted to the server (api/forms.ts) when the app is not running. */}
        <form
          method="post"
          action="/profile"
          noValidate
          onSubmit={save}
          className={css({ display: 'grid', gap: '4' })}
          aria-busy={saving}
        >
          <Field
            label="Display name"
            name="displayName"
            autoComplete="nickname"
            maxLength={DISPLAY_NAME_MAX * 2}
            value={displayName}
            onChange={(event) => setDisplayName(event.target.value)}
            error={error ?? serverError}
            hint={`Up to ${DISPLAY_NAME_MAX} characters.`}
          />
          <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
            <button type="submit" className={button()} disabled={saving}>
              {saving ? 'Saving…' : 'Save changes'}
            </button>
            <p role="status" className={css({ fontSize: 'sm', color: 'success.text' })}>
              {saved ? 'Your profile was saved.' : ''}
            </p>
          </div>
        </form>
      </CardSection>
      <PasswordSection email={user?.email ?? ''} />
      <DeleteSection email={user?.email ?? ''} />
      <CardSection
        id="appearance-title"
        title="Appearance"
        description="Light, dark, or the same as your system. Remembered on this browser."
        className={settingsWidth}
      >
        <div>
          <LazyColorModeSwitch />
        </div>
      </CardSection>
      <CardSection
        id="session-title"
        title="Session"
        description="Signing out ends your session on this browser."
        className={settingsWidth}
      >
        <SignOutForm className={button({ visual: 'outline' })}>Sign out</SignOutForm>
      </CardSection>
    </div>
  );
}

const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const formLayout = css({ display: 'grid', gap: '4' });
const statusText = css({ fontSize: 'sm', color: 'success.text' });

function failureOf(error: unknown): { field: string | undefined; message: string } {
  if (error instanceof ApiError) return { field: error.field, message: error.message };
  return { field: undefined, message: 'Something went wrong. Please try again.' };
}

/**
 * Change the password: the current one, then the new one (the API's policy: api/passwords.ts). Every other
 * session of the account ends; this one stays. Posted to the server's form route without JavaScript.
 */
function PasswordSection({ email }: { readonly email: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ currentPassword?: string; newPassword?: string }>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const statusRef = useRef<HTMLParagraphElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    const length = [...next.normalize('NFC')].length;
    const found = {
      ...(current === '' ? { currentPassword: 'Enter your current password.' } : {}),
      ...(next === ''
        ? { newPassword: 'Enter a new password.' }
        : length < PASSWORD_MIN
          ? { newPassword: `Password must be at least ${PASSWORD_MIN} characters (15 or more is better).` }
          : length > PASSWORD_MAX
            ? { newPassword: `Password must be at most ${PASSWORD_MAX} characters.` }
            : {}),
    };
    setErrors(found);
    if (found.currentPassword || found.newPassword) {
      document.getElementById(found.currentPassword ? 'current-password' : 'new-password')?.focus();
      return;
    }
    setBusy(true);
    try {
      await apiRequest<unknown>('/account/password', {
        method: 'PUT',
        body: { currentPassword: current, newPassword: next },
      });
      setCurrent('');
      setNext('');
      setDone(true);
      statusRef.current?.focus();
    } catch (error) {
      const { field, message } = failureOf(error);
      const on = field === 'newPassword' ? 'newPassword' : 'currentPassword';
      setErrors({ [on]: message });
      document.getElementById(on === 'newPassword' ? 'new-password' : 'current-password')?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <CardSection
      id="password-title"
      title="Password"
      description="Changing it signs you out everywhere else; this browser stays signed in."
      className={settingsWidth}
    >
      <form
        method="post"
        action="/profile/password"
        noValidate
        onSubmit={submit}
        className={formLayout}
        aria-busy={busy}
      >
        {/* For password managers: which account the new password is for. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field
          id="current-password"
          label="Current password"
          type="password"
          name="currentPassword"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          error={errors.currentPassword}
        />
        <Field
          id="new-password"
          label="New password"
          type="password"
          name="newPassword"
          autoComplete="new-password"
          value={next}
          onChange={(event) => setNext(event.target.value)}
          error={errors.newPassword}
          hint={`At least ${PASSWORD_MIN} characters; 15 or more is better.`}
        />
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
          <button type="submit" className={button()} disabled={busy}>
            {busy ? 'Changing…' : 'Change password'}
          </button>
          {/* A live region of its own (the display name's status is the page's `status`), focused when it speaks. */}
          <p ref={statusRef} tabIndex={-1} aria-live="polite" className={statusText}>
            {done ? 'Your password was changed. Your other sessions were signed out.' : ''}
          </p>
        </div>
      </form>
    </CardSection>
  );
}

/**
 * Delete the account, the password required: its sessions end, and its drafts and finished campaigns go with
 * it; refused while it runs a public campaign (docs/accounts.md).
 */
function DeleteSection({ email }: { readonly email: string }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '') {
      setError('Enter your password to delete your account.');
      document.getElementById('delete-password')?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await apiRequest<unknown>('/account', { method: 'DELETE', body: { password } });
      // A whole new page: the app starts again signed out.
      window.location.assign('/');
    } catch (failure) {
      setBusy(false);
      setError(failureOf(failure).message);
      document.getElementById('delete-password')?.focus();
    }
  }

  return (
    <CardSection
      id="delete-title"
      title="Delete account"
      description="Deletes your account, your drafts and your finished campaigns, and signs you out everywhere. It cannot be undone."
      className={settingsWidth}
    >
      <form
        method="post"
        action="/profile/delete"
        noValidate
        onSubmit={submit}
        className={formLayout}
        aria-busy={busy}
      >
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field
          id="delete-password"
          label="Your password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={error}
        />
        <div>
          <button type="submit" className={button({ visual: 'outline' })} disabled={busy}>
            {busy ? 'Deleting…' : 'Delete my account'}
          </button>
        </div>
      </form>
    </CardSection>
  );
}

export default { component: ProfilePage } satisfies PageDefinition<undefined> as AnyPage;
