/**
 * Start-up failure handling. A mount failure is logged with the spec's words and rethrown (so error
 * monitoring still sees it), and the static failure notice in index.html is revealed: never a blank page.
 */
export async function mountOrReport(
  mount: () => Promise<void> | void,
  doc: Document = document,
): Promise<void> {
  try {
    await mount();
  } catch (error) {
    console.error('Error while mounting app:', error);
    revealBootFailure(doc);
    throw error;
  }
}

export function revealBootFailure(doc: Document): void {
  const notice = doc.getElementById('boot-failure');
  if (notice) notice.hidden = false;
  const status = doc.getElementById('boot-status');
  if (status) status.hidden = true;
}
