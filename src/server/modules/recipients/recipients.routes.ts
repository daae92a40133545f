import type { App } from '../../http';
import type { RecipientsService } from './recipients.service';

export function recipientsRoutes(app: App, service: RecipientsService) {
  void app;
  void service;
}
