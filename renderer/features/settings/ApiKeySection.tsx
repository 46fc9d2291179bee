/** The API key: where it comes from, and a password field to store or remove it. The key is never shown. */
import { useState } from 'react';
import type { SettingsView } from '../../../shared/contract';
import { useCove } from '../../store';

const SOURCE_TEXT: Record<SettingsView['apiKey'], string> = {
  stored: 'An API key is stored in Cove.',
  environment: 'The API key comes from the environment (ANTHROPIC_API_KEY). A key stored here takes its place.',
  missing: 'No API key yet: runs cannot start until you add one.',
};

export function ApiKeySection({ source }: { source: SettingsView['apiKey'] }) {
  const setApiKey = useCove((state) => state.setApiKey);
  const notify = useCove((state) => state.notify);
  const busy = useCove((state) => state.settingsBusy);
  const [key, setKey] = useState('');
  return (
    <section className="settings-section" aria-labelledby="settings-api-key">
      <h3 id="settings-api-key">API key</h3>
      <p className={`api-key-source source-${source}`} role="status">
        {SOURCE_TEXT[source]}
      </p>
      <form
        className="settings-form"
        onSubmit={async (event) => {
          event.preventDefault();
          if (await setApiKey(key.trim())) {
            setKey('');
            notify('API key saved.', 'info');
          }
        }}
      >
        <label className="field">
          <span>API key</span>
          <input type="password" autoComplete="off" spellCheck={false} value={key} placeholder="sk-ant-…" onChange={(event) => setKey(event.target.value)} />
        </label>
        <div className="button-row">
          <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
            Save API key
          </button>
          {source === 'stored' ? (
            <button
              type="button"
              disabled={busy}
              onClick={async () => {
                if (await setApiKey(null)) notify('API key removed.', 'info');
              }}
            >
              Remove API key
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
