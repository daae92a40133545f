import type { App } from '../../http';
import type { OrganizationSettingsService } from './settings.service';

export function organizationSettingsRoutes(app: App, service: OrganizationSettingsService) {
  void app;
  void service;
}
