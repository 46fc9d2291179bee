/**
 * The renderer's entry point. It is kept small on purpose: the connection opens and the first
 * requests (the sessions list among them) go out while the browser is still fetching and
 * compiling React and the app, so their answers are in the store by the first render.
 * index.html preloads the interface's chunks (scripts/build-renderer.mjs), so they download
 * beside this one instead of after it.
 */
import { bootstrap } from './bootstrap';
import { prefetchSessionView } from './feature-chunks';
import { showLoadFailure } from './load-failure';
import { useCove } from '../store';
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

const root = document.getElementById('root')!;
bootstrap();
// A session open before the reload is shown again at once: its chunk downloads beside the interface's.
if (useCove.getState().activeSessionId) prefetchSessionView();
import('./mount').then(
  ({ mount }) => mount(root),
  (error: unknown) => showLoadFailure(root, error),
);
