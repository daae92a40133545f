import type { Deps } from '../../context';
import { notFound } from '../../lib/errors';
import { membersRepository } from '../organizations/members.repository';
import { photosRepository } from './photos.repository';

const PHOTO_NOT_FOUND = 'Photo not found';

export function createPhotosService({ db }: Deps) {
  return {
    /**
     * An <img> cannot send the organization header, so access is decided by the photo's own
     * organization: members get the bytes, everybody else the same 404 as for a missing photo.
     */
    async read(userId: string, photoId: string, variant: 'full' | 'thumbnail') {
      const photo = await photosRepository.findForServing(db, photoId, variant);
      if (!photo) throw notFound(PHOTO_NOT_FOUND);
      const role = await membersRepository.findRole(db, photo.organizationId, userId);
      if (!role) throw notFound(PHOTO_NOT_FOUND);
      return { contentType: photo.contentType, bytes: photo.bytes };
    },
  };
}

export type PhotosService = ReturnType<typeof createPhotosService>;
