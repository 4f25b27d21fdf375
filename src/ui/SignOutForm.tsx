import { button } from '../../styled-system/recipes';
import { useSessionView } from './appActor';
import { Icon } from './Icon';

export interface SignOutFormProps {
  /** The header's small button, with its icon; otherwise a plain outline button. */
  readonly compact?: boolean;
}

/**
 * Sign out, as a form wherever the app offers it: posted to the server (api/forms.ts) while the app is not
 * running, the session machine's `signOut` once it is. Disabled while a sign-out is under way.
 */
export function SignOutForm({ compact = false }: SignOutFormProps) {
  const { signingOut, signOut } = useSessionView();
  return (
    <form
      method="post"
      action="/logout"
      onSubmit={(event) => {
        event.preventDefault();
        signOut();
      }}
    >
      <button
        type="submit"
        // Two literal calls: the build folds each into its class names (build/staticStyles.ts).
        className={compact ? button({ visual: 'outline', size: 'sm' }) : button({ visual: 'outline' })}
        disabled={signingOut}
      >
        {compact ? <Icon name="lucide:log-out" /> : null}
        Sign out
      </button>
    </form>
  );
}
