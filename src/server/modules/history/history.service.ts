import type { Deps } from '../../context';

export function createHistoryService(deps: Deps) {
  void deps;
  return {};
}

export type HistoryService = ReturnType<typeof createHistoryService>;
