import { useMutation, useQueryClient } from '@tanstack/react-query';
import { personalDataFileName, type EraseRecipientBody, type EraseRecipientResult } from '@contract';
import { historyQueryKey } from '@/lib/resources/keys';
import { apiRequest } from '@/lib/api';
import { fetchFile, saveBlob } from '@/lib/download';
import { invalidateRecipients } from '@/lib/resources/recipients';

/** GET /api/recipients/:id/personal-data (admins): everything held about the recipient as a JSON file. */
export async function downloadPersonalData(organizationId: string, recipientId: string) {
  const res = await fetchFile(`/api/recipients/${recipientId}/personal-data`, organizationId);
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
