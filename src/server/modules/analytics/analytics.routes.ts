import type { App } from '../../http';
import type { AnalyticsService } from './analytics.service';

export function analyticsRoutes(app: App, service: AnalyticsService) {
  void app;
  void service;
}
