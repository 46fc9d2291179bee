/** The renderer's entry point. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { bootstrap } from './bootstrap';
import './styles/base.css';
import './styles/layout.css';
import './styles/session.css';
import './styles/panels.css';
import './styles/settings.css';
import './styles/transcript.css';
import './styles/tools.css';
import './styles/habits.css';
import './styles/highlight.css';
import './styles/terminal.css';
import './styles/review.css';
import './styles/worktrees.css';
import './styles/adaptive.css';
import './styles/subagents.css';
import './styles/cards.css';

bootstrap();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
