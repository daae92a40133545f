/** A search term made literal inside a LIKE pattern: its %, _ and \ match themselves. */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);
