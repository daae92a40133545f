import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ORGANIZATION_HEADER,
  personalDataFileName,
  type EraseRecipientBody,
  type EraseRecipientResult,
} from '@contract';
import { historyQueryKey } from '@/features/history/api/history';
import { ApiError, apiRequest } from '@/lib/api';
import { invalidateRecipients } from './invalidateRecipients';

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // let the browser start the download before the object URL goes
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * GET /api/recipients/:id/personal-data (admins): everything held about the recipient as a JSON
 * file. A plain link cannot send the organization header, so the file is fetched, then saved.
 */
export async function downloadPersonalData(organizationId: string, recipientId: string) {
  const res = await fetch(`/api/recipients/${recipientId}/personal-data`, {
    headers: { [ORGANIZATION_HEADER]: organizationId },
    credentials: 'include',
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  const fileName = personalDataFileName(recipientId);
  saveBlob(await res.blob(), fileName);
  return fileName;
}

/** Admins only. */
export function useDownloadPersonalData(organizationId: string) {
  return useMutation({ mutationFn: (recipientId: string) => downloadPersonalData(organizationId, recipientId) });
}

export function eraseRecipientPersonalData(organizationId: string, recipientId: string) {
  const body: EraseRecipientBody = { confirm: true };
  return apiRequest<EraseRecipientResult>('POST', `/api/recipients/${recipientId}/erase`, body, { organizationId });
}

/**
 * Admins only. Afterwards every list that shows the recipient's name refetches: recipients,
 * mail items, the dashboard and History (its rows name the recipient too).
 */
export function useEraseRecipientPersonalData(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recipientId: string) => eraseRecipientPersonalData(organizationId, recipientId),
    onSuccess: () =>
      Promise.all([
        invalidateRecipients(queryClient, organizationId),
        queryClient.invalidateQueries({ queryKey: historyQueryKey(organizationId) }),
      ]),
  });
}
