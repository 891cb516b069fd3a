// First: sets up libraries for the Content-Security-Policy before other modules build schemas.
import './csp-nonce';
// Mantine's global styles; each component's own come with the component (vite.config.ts).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { initI18n } from './i18n';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Strings first: the startup screen already names its steps in the user's language.
void initI18n().then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
