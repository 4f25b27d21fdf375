import type { ReactNode } from 'react';
import { useSessionView } from '../platform/appActor';
import { afterInput } from '../platform/tasks';

export interface SignOutFormProps {
  /** The button's class names (a literal recipe call at each use, which the build folds). */
  readonly className: string;
  readonly children: ReactNode;
}

/**
 * Sign out, as a form wherever the app offers it: posted to the server (api/forms.ts) while the app is not
 * running, the session machine's `signOut` once it is. Disabled while a sign-out is under way.
 */
export function SignOutForm({ className, children }: SignOutFormProps) {
  const { signingOut, signOut } = useSessionView();
  return (
    <form
      method="post"
      action="/logout"
      onSubmit={(event) => {
        event.preventDefault();
        // After the frame the click asked for: the session's step and render are no part of its task.
        afterInput(signOut);
      }}
    >
      <button type="submit" className={className} disabled={signingOut}>
        {children}
      </button>
    </form>
  );
}
