import type { InvitationPreview } from '@contract';
import { useEffect, useState } from 'react';
import { verifyInvitation } from '../api/verifyInvitation';

export type InvitationPreviewState =
  | { status: 'none' | 'loading' | 'failed'; invitation?: undefined }
  | { status: 'known'; invitation: InvitationPreview }
  | { status: 'invalid'; invitation: null };

/**
 * The invitation behind a token, for the signed-out forms (which do without TanStack Query,
 * decision 024): `invalid` when it is unknown or expired, `failed` when it could not be checked.
 */
export function useInvitationPreview(token: string | null): InvitationPreviewState {
  // the answer, with the token it is for: a new token is loading until its own answer arrives
  const [settled, setSettled] = useState<{ token: string; preview: InvitationPreviewState } | null>(null);
  useEffect(() => {
    if (!token) return;
    let current = true;
    verifyInvitation(token).then(
      (invitation) => {
        if (!current) return;
        setSettled({
          token,
          preview: invitation ? { status: 'known', invitation } : { status: 'invalid', invitation: null },
        });
      },
      () => {
        if (current) setSettled({ token, preview: { status: 'failed' } });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (!token) return { status: 'none' };
  return settled?.token === token ? settled.preview : { status: 'loading' };
}
