/**
 * The drawing inside the Pigeonhole mark: a rack of four pigeonholes. No imports, so the landing
 * page's Brand can draw it without bringing in class merging.
 */
export function LogoGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="size-[60%]"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.2}
      strokeLinejoin="round"
    >
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M3 12h18M12 4v16" />
    </svg>
  );
}
