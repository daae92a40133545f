import type { Deps } from '../../context';

export function createPhotosService(deps: Deps) {
  void deps;
  return {};
}

export type PhotosService = ReturnType<typeof createPhotosService>;
