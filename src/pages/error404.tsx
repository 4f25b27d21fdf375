import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { Link } from '../ui/Link';
import { type ErrorViewProps, errorLayout, errorMessage, errorStatus, errorTitle } from './errorStyles';

/** The 404 view: status, status message, message, and a way home. */
export function Error404({ statusCode, statusMessage, message }: ErrorViewProps) {
  return (
    <main id="main" className={errorLayout}>
      <h1 tabIndex={-1} className={errorStatus}>
        {statusCode}
      </h1>
      <h2 className={errorTitle}>{statusMessage}</h2>
      <p className={errorMessage}>{message}</p>
      <div className={css({ mt: '4' })}>
        <Link to="/" className={button()}>
          Go back home
        </Link>
      </div>
    </main>
  );
}
