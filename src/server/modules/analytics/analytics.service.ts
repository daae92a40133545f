import type { Deps } from '../../context';

export function createAnalyticsService(deps: Deps) {
  void deps;
  return {};
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
