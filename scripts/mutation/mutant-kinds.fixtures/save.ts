export interface Store {
  write(value: string): Promise<void>;
  readonly saved: string[];
}

/** Saves a draft and says how many are saved, once the write has landed. */
export async function saveDraft(store: Store, draft: string): Promise<number> {
  await store.write(draft);
  return store.saved.length;
}
