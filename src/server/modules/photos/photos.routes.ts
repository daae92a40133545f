import { z } from 'zod';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { authOf } from '../../plugins/session';
import type { PhotosService } from './photos.service';

const PhotoParams = z.object({ id: z.uuid({ message: 'Photo not found' }) });
const VARIANTS = [
  ['/api/photos/:id', 'full', 'A mail item photo (members of its organization only)'],
  ['/api/photos/:id/thumbnail', 'thumbnail', 'The thumbnail of a mail item photo'],
] as const;

export function photosRoutes(app: App, photos: PhotosService) {
  for (const [url, variant, summary] of VARIANTS) {
    app.get(url, {
      schema: {
        tags: ['Photos'],
        summary,
        params: PhotoParams,
        response: { 200: z.unknown().describe('image/jpeg bytes'), ...errorReplies(400, 401, 404) },
      },
      preValidation: app.authenticate,
      handler: async (request, reply) => {
        const photo = await photos.read(authOf(request).user.id, request.params.id, variant);
        // A photo never changes (a new upload gets a new id), so browsers may keep it, privately.
        return reply
          .header('content-type', photo.contentType)
          .header('cache-control', 'private, max-age=31536000, immutable')
          .send(photo.bytes);
      },
    });
  }
}
