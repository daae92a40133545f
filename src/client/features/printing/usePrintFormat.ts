import { useState } from 'react';
import { initialFormat, rememberFormat, type PrintFormat, type PrintKind } from './printFormats';

/** The paper of a print view: from the address (`format=`), else remembered, else the region's sheet. */
export function usePrintFormat(kind: PrintKind, fromUrl: string | null) {
  const [format, setFormat] = useState<PrintFormat>(() => initialFormat(kind, fromUrl));
  const change = (next: PrintFormat) => {
    setFormat(next);
    rememberFormat(kind, next);
  };
  return [format, change] as const;
}
