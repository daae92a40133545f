import type { Deps } from '../../context';

export function createMailroomsService(deps: Deps) {
  void deps;
  return {};
}

export type MailroomsService = ReturnType<typeof createMailroomsService>;
