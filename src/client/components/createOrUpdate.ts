/** What is used of a TanStack mutation. */
interface Mutation<T, V> {
  mutate: (variables: V, options: { onSuccess: (saved: T) => void; onError: (err: Error) => void }) => void;
}

interface Outcome {
  /** The title of the success toast. */
  title: string;
  onError: (err: Error) => void;
}

interface CreateOrUpdateOptions<T, V> {
  create: Mutation<T, V>;
  update: Mutation<T, { id: string; changes: V }>;
  created: Outcome;
  updated: Outcome;
  /** After either save, with the saved record and its outcome's title. */
  onSaved: (saved: T, title: string) => void;
}

/**
 * The submit of a dialog that both adds and edits (recipient, mailroom, location): it updates the
 * record it was opened on, or creates a new one when it was opened on none.
 */
export function createOrUpdate<T, V>(
  existingId: string | undefined,
  values: V,
  { create, update, created, updated, onSaved }: CreateOrUpdateOptions<T, V>,
) {
  if (existingId) {
    update.mutate(
      { id: existingId, changes: values },
      { onSuccess: (saved) => onSaved(saved, updated.title), onError: updated.onError },
    );
  } else {
    create.mutate(values, { onSuccess: (saved) => onSaved(saved, created.title), onError: created.onError });
  }
}
