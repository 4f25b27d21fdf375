import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { type ErrorViewProps, errorLayout, errorMessage, errorStatus, errorTitle } from './errorStyles';

/** The view for every error but 404: status, status message, message, and a way to try again. */
export function Error500({ statusCode, statusMessage, message }: ErrorViewProps) {
  return (
    <main id="main" className={errorLayout}>
      <h1 tabIndex={-1} className={errorStatus}>
        {statusCode}
      </h1>
      <h2 className={errorTitle}>{statusMessage}</h2>
      <p className={errorMessage}>{message}</p>
      <div className={css({ mt: '4' })}>
        <button
          type="button"
          className={button({ visual: 'outline' })}
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </div>
    </main>
  );
}
