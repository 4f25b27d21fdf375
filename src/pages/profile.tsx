import { type FormEvent, useState } from 'react';
import { displayNameForm, formErrors } from '../../core/forms';
import { DISPLAY_NAME_MAX } from '../../core/limits';
import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
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

export default { component: ProfilePage } satisfies PageDefinition<undefined> as AnyPage;
