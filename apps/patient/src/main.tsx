// First: sets up libraries for the Content-Security-Policy before other modules build schemas.
import './csp-nonce';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { initI18n } from './i18n';
import { registerServiceWorker } from './service-worker';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

registerServiceWorker();
void initI18n().then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
