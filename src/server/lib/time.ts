export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
export const addMs = (d: Date, ms: number) => new Date(d.getTime() + ms);
export const DAY_MS = 24 * 3600_000;
