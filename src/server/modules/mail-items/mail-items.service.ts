import type { Deps } from '../../context';

export function createMailItemsService(deps: Deps) {
  void deps;
  return {};
}

export type MailItemsService = ReturnType<typeof createMailItemsService>;
