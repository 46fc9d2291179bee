/** The interface itself: React and the app, loaded by main.tsx once the connection is under way. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

export function mount(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
