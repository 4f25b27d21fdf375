import { fromPromise } from 'xstate';

/**
 * Asks `isbot` whether this visitor is a crawler. The detector is loaded only when an error is about
 * to be shown, so people never download it.
 */
export const detectCrawler = fromPromise<boolean>(async () => {
  const { isbot } = await import('isbot');
  return isbot(navigator.userAgent);
});
