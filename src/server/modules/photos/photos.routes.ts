import type { App } from '../../http';
import type { PhotosService } from './photos.service';

export function photosRoutes(app: App, service: PhotosService) {
  void app;
  void service;
}
