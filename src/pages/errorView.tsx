import { type AppError, statusMessageOf } from '../../machines/errors';
import { Error404 } from './error404';
import { Error500 } from './error500';
import type { ErrorViewProps } from './errorStyles';

export function errorDocumentTitle(error: AppError, appName: string): string {
  return `${error.statusCode} - ${statusMessageOf(error)} | ${appName}`;
}

/**
 * The error page: it replaces the whole layout, as in the system the spec comes from. Messages are
 * React text, so a path full of markup shows as text. The views ship in the main bundle, so the error
 * page still works when page chunks cannot be loaded.
 */
export function ErrorView({ error }: { readonly error: AppError }) {
  const props: ErrorViewProps = {
    statusCode: error.statusCode,
    statusMessage: statusMessageOf(error),
    message: error.message,
  };
  return error.statusCode === 404 ? <Error404 {...props} /> : <Error500 {...props} />;
}
