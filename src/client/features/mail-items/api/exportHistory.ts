import { useMutation } from '@tanstack/react-query';
import { historyFileName } from '@contract';
import { withQuery } from '@/lib/api';
import { fetchFile, saveBlob } from '@/lib/download';
import { historyQuery, type HistoryFilterParams } from './history';

/** Today's date in the browser's timezone as YYYY-MM-DD. */
function today() {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The file name the server gave in content-disposition, else the spec's mailroom-history-{date}.csv. */
function fileNameOf(disposition: string | null) {
  const encoded = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // malformed: fall through to the plain name
    }
  }
  return disposition?.match(/filename="?([^";]+)"?/i)?.[1] ?? historyFileName(today());
}

/** GET /api/history/export: the whole filtered range as CSV (not just the visible page). */
export async function exportHistory(organizationId: string, filter: HistoryFilterParams) {
  const res = await fetchFile(withQuery('/api/history/export', historyQuery(filter)), organizationId);
  const fileName = fileNameOf(res.headers.get('content-disposition'));
  saveBlob(await res.blob(), fileName);
  return fileName;
}

export function useExportHistory(organizationId: string) {
  return useMutation({ mutationFn: (filter: HistoryFilterParams) => exportHistory(organizationId, filter) });
}
