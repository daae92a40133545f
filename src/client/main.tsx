import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { watchTheme } from '@/lib/theme';
import './index.css';

// public/theme-init.js set the theme before the first paint; from here on it follows changes
watchTheme();

// The installable app's offline shell (decision 044): built only, registered once the page has
// loaded so it never competes with the first load's requests.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // No worker (a private window, an http desk): the app works online as before.
    });
  });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
