import { useMutation } from '@tanstack/react-query';
import { ORGANIZATION_HEADER, historyFileName } from '@contract';
import { ApiError, withQuery } from '@/lib/api';
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
 * GET /api/history/export: the whole filtered range as CSV (not just the visible page). A plain
 * link cannot send the organization header, so the file is fetched and then saved.
 */
export async function exportHistory(organizationId: string, filter: HistoryFilterParams) {
  const res = await fetch(withQuery('/api/history/export', historyQuery(filter)), {
    headers: { [ORGANIZATION_HEADER]: organizationId },
    credentials: 'include',
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  const fileName = fileNameOf(res.headers.get('content-disposition'));
  saveBlob(await res.blob(), fileName);
  return fileName;
}

export function useExportHistory(organizationId: string) {
  return useMutation({ mutationFn: (filter: HistoryFilterParams) => exportHistory(organizationId, filter) });
}
