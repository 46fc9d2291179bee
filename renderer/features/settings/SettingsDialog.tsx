/** Settings: API key, model, default permission mode, the open workspace's rules and MCP servers, and problems. */
import { useEffect, useState } from 'react';
import type { ModelChoice } from '../../../shared/contract';
import { useCove } from '../../store';
import { Dialog } from '../../ui/Dialog';
import { MODE_LABELS } from '../session/SessionHeader';
import { ApiKeySection } from './ApiKeySection';
import { McpServers } from './McpServers';
import { RuleSources } from './RuleSources';

export function SettingsDialog() {
  const open = useCove((state) => state.settingsOpen);
  const close = useCove((state) => state.closeSettings);
  const settings = useCove((state) => state.settings);
  const error = useCove((state) => state.settingsError);
  return (
    <Dialog open={open} title="Settings" onClose={close}>
      {error ? (
        <p role="alert" className="inline-error">
          {error}
        </p>
      ) : null}
      {settings ? (
        <>
          <ApiKeySection source={settings.apiKey} storage={settings.apiKeyStorage} />
          <DefaultsSection model={settings.model} permissionMode={settings.permissionMode} />
          <RuleSources />
          <McpServers />
          {settings.problems.length > 0 ? (
            <section className="settings-section" aria-labelledby="settings-problems">
              <h3 id="settings-problems">Problems with settings files</h3>
              <ul className="problems">
                {settings.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : error ? null : (
        <p role="status">Loading settings…</p>
      )}
    </Dialog>
  );
}

function DefaultsSection({ model, permissionMode }: { model: string; permissionMode: string }) {
  const updateSettings = useCove((state) => state.updateSettings);
  const notify = useCove((state) => state.notify);
  const busy = useCove((state) => state.settingsBusy);
  const choices = useCove((state) => state.modelChoices);
  const [modelText, setModelText] = useState(model);
  const [mode, setMode] = useState(permissionMode);
  useEffect(() => setModelText(model), [model]);
  useEffect(() => setMode(permissionMode), [permissionMode]);
  const modeValue = Object.keys(MODE_LABELS).find((candidate) => candidate === mode) as 'default' | 'acceptEdits' | 'plan' | 'bypass' | undefined;
  return (
    <section className="settings-section" aria-labelledby="settings-defaults">
      <h3 id="settings-defaults">Model and permissions</h3>
      <form
        className="settings-form"
        onSubmit={async (event) => {
          event.preventDefault();
          const ok = await updateSettings({ model: modelText.trim(), ...(modeValue ? { permissionMode: modeValue } : {}) });
          if (ok) notify('Settings saved. New runs use them.', 'info');
        }}
      >
        <ModelPicker value={modelText} choices={choices} onChange={setModelText} />
        <label className="field">
          <span>Default permission mode</span>
          <select value={mode} onChange={(event) => setMode(event.target.value)}>
            {Object.entries(MODE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={busy || modelText.trim() === ''}>
          Save settings
        </button>
      </form>
    </section>
  );
}

const OTHER = '';

/**
 * The model, picked from the catalog (what the key can use, or the price table's models), with
 * "Another model id" for a gateway's or Ollama's ids the catalog does not list.
 */
function ModelPicker({ value, choices, onChange }: { value: string; choices: ModelChoice[]; onChange(model: string): void }) {
  const listed = choices.some((choice) => choice.id === value);
  const [typing, setTyping] = useState(false);
  const other = typing || (!listed && value !== '' && choices.length > 0) || choices.length === 0;
  return (
    <>
      {choices.length > 0 ? (
        <label className="field">
          <span>Model</span>
          <select
            value={other ? OTHER : value}
            onChange={(event) => {
              setTyping(event.target.value === OTHER);
              if (event.target.value !== OTHER) onChange(event.target.value);
            }}
          >
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {`${choice.displayName === choice.id ? choice.id : `${choice.displayName} (${choice.id})`} · ${Math.round(choice.contextWindow / 1000)}K context${choice.priced ? '' : ' · cost unknown'}`}
              </option>
            ))}
            <option value={OTHER}>Another model id…</option>
          </select>
        </label>
      ) : null}
      {other ? (
        <label className="field">
          <span>{choices.length > 0 ? 'Model id' : 'Model'}</span>
          <input value={value} onChange={(event) => onChange(event.target.value)} spellCheck={false} autoComplete="off" />
        </label>
      ) : null}
    </>
  );
}
