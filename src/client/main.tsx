import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { watchTheme } from '@/lib/theme';
import './index.css';

// public/theme-init.js set the theme before the first paint; from here on it follows changes
watchTheme();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
