import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecipientImportPreview, RecipientImportResult } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateRecipients } from '@/lib/resources/recipients';

/** Parses and checks the CSV without saving anything: per-row errors and duplicates, and a summary. */
export function previewRecipientImport(organizationId: string, csv: string) {
  return apiRequest<RecipientImportPreview>('POST', '/api/recipients/import/preview', { csv }, { organizationId });
}

/** Saves the valid rows (admins only); duplicates are left out when skipDuplicates is set. */
export function importRecipients(organizationId: string, csv: string, skipDuplicates = true) {
  return apiRequest<RecipientImportResult>(
    'POST',
    '/api/recipients/import',
    { csv, skipDuplicates },
    { organizationId },
  );
}

export function useRecipientImportPreview(organizationId: string) {
  return useMutation({ mutationFn: (csv: string) => previewRecipientImport(organizationId, csv) });
}

export function useImportRecipients(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ csv, skipDuplicates = true }: { csv: string; skipDuplicates?: boolean }) =>
      importRecipients(organizationId, csv, skipDuplicates),
    onSuccess: () => invalidateRecipients(queryClient, organizationId),
  });
}
