import type { App } from '../../http';
import type { MailItemsService } from './mail-items.service';

export function mailItemsRoutes(app: App, service: MailItemsService) {
  void app;
  void service;
}
