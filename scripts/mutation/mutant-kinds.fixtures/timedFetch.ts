/** What getJson needs of `fetch`: an answer whose body is read as JSON, and the signal that ends the request. */
export type Fetch = (url: string, init: { signal: AbortSignal }) => Promise<{ json(): Promise<unknown> }>;

/** Fetches JSON within a deadline that covers the whole answer, its body included: a stalled body fails too. */
export async function getJson(fetchImpl: Fetch, url: string, timeoutMs: number): Promise<unknown> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`No answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetchImpl(url, { signal: deadline.signal });
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}
