import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { photos } from '../../db/schema';

export const photosRepository = {
  async delete(db: DbOrTx, organizationId: string, id: string) {
    await db.delete(photos).where(and(eq(photos.organizationId, organizationId), eq(photos.id, id)));
  },

  /** By id alone: the caller's membership of the photo's organization is checked by the service. */
  async findForServing(db: DbOrTx, id: string, variant: 'full' | 'thumbnail') {
    const [row] = await db
      .select({
        organizationId: photos.organizationId,
        contentType: photos.contentType,
        bytes: variant === 'full' ? photos.data : photos.thumbnail,
      })
      .from(photos)
      .where(eq(photos.id, id));
    return row;
  },
};
