import type { Deps } from '../../context';

export function createRecipientsService(deps: Deps) {
  void deps;
  return {};
}

export type RecipientsService = ReturnType<typeof createRecipientsService>;
