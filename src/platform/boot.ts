/**
 * Start-up failure handling. A mount failure is logged with the spec's words and rethrown (so error
 * monitoring still sees it), and the static failure notice in index.html is revealed: never a blank page.
 * A start-up cut short because the visitor left the page is no failure: WebKit rejects the module imports still
 * loading when a document is left ("Importing a module script failed."), where Chromium and Firefox drop them
 * silently; reported, each quick click away in Safari would count as a start-up failure.
 */
export async function mountOrReport(
  mount: () => Promise<void> | void,
  doc: Document = document,
): Promise<void> {
  const view = doc.defaultView;
  let leaving = false;
  const onHide = () => {
    leaving = true;
  };
  // Back from the back/forward cache, the start-up goes on: a failure then is real.
  const onShow = () => {
    leaving = false;
  };
  view?.addEventListener('pagehide', onHide);
  view?.addEventListener('pageshow', onShow);
  try {
    await mount();
  } catch (error) {
    if (leaving) return;
    console.error('Error while mounting app:', error);
    revealBootFailure(doc);
    throw error;
  } finally {
    view?.removeEventListener('pagehide', onHide);
    view?.removeEventListener('pageshow', onShow);
  }
}

export function revealBootFailure(doc: Document): void {
  const notice = doc.getElementById('boot-failure');
  if (notice) notice.hidden = false;
  const status = doc.getElementById('boot-status');
  if (status) status.hidden = true;
}
