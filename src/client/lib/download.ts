import { ORGANIZATION_HEADER } from '@contract';
import { ApiError } from './api';

/**
 * A file from the API for the organization. A plain link cannot send the organization header, so
 * the file is fetched (and saved with `saveBlob`); a refusal throws ApiError as other calls do.
 */
export async function fetchFile(url: string, organizationId: string): Promise<Response> {
  const res = await fetch(url, { headers: { [ORGANIZATION_HEADER]: organizationId }, credentials: 'include' });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  return res;
}

/** Saves `blob` as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string) {
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
