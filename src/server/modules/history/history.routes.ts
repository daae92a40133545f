import type { App } from '../../http';
import type { HistoryService } from './history.service';

export function historyRoutes(app: App, service: HistoryService) {
  void app;
  void service;
}
