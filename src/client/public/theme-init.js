/* global window, document */
// Sets the colour theme before the first paint, so a dark screen never flashes white. Loaded as a
// blocking script from our own origin (the Content-Security-Policy allows no inline script).
// The browser's theme-color follows (the dark canvas, not index.html's indigo). Keep the key, the
// rule and the colour in step with src/client/lib/theme.ts (THEME_COLOURS).
(function () {
  var choice = null;
  try {
    choice = localStorage.getItem('pigeonhole-theme');
  } catch {
    choice = null; // storage disabled: follow the system
  }
  var dark =
    choice === 'dark' ||
    (choice !== 'light' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  if (!dark) return;
  document.documentElement.classList.add('dark');
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', '#020618');
})();
