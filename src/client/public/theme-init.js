/* global window, document */
// Sets the colour theme before the first paint, so a dark screen never flashes white. Loaded as a
// blocking script from our own origin (the Content-Security-Policy allows no inline script).
// Keep the key and the rule in step with src/client/lib/theme.ts.
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
  if (dark) document.documentElement.classList.add('dark');
})();
