import type { App } from '../../http';
import type { MailroomsService } from './mailrooms.service';

export function mailroomsRoutes(app: App, service: MailroomsService) {
  void app;
  void service;
}
