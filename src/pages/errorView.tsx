import { pathTo } from '../../core/routes';
import { type AppError, statusMessageOf } from '../../machines/app/errorCatalogue';
import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { Link } from '../ui/Link';

const layout = css({
  minH: '100dvh',
  display: 'grid',
  alignContent: 'center',
  justifyItems: 'center',
  textAlign: 'center',
  gap: '2',
  px: '6',
  py: '10',
  bg: 'bg',
});
const status = css({ textStyle: 'errorStatus', color: 'fg.highlighted', _focus: { outline: 'none' } });
const title = css({ textStyle: 'errorTitle', color: 'fg.highlighted' });
const message = css({ color: 'fg.muted', maxW: '40rem', overflowWrap: 'anywhere' });

/**
 * The error page: it replaces the whole layout, as in the system the spec comes from. Status, status
 * message, message, and a way on: home for a 404, a reload for everything else. Messages are React
 * text, so a path full of markup shows as text. It ships in the main bundle, so the error page still
 * works when page chunks cannot be loaded.
 */
export function ErrorView({ error }: { readonly error: AppError }) {
  return (
    <main id="main" className={layout}>
      <h1 className={status}>{error.statusCode}</h1>
      <h2 className={title}>{statusMessageOf(error)}</h2>
      <p className={message}>{error.message}</p>
      <div className={css({ mt: '4' })}>
        {error.statusCode === 404 ? (
          <Link to={pathTo('index')} className={button()}>
            Go back home
          </Link>
        ) : (
          <button
            type="button"
            className={button({ visual: 'outline' })}
            onClick={() => window.location.reload()}
          >
            Reload
          </button>
        )}
      </div>
    </main>
  );
}
