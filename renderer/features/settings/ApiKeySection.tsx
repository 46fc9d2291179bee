/**
 * The API key: where it comes from, and a password field to store or remove it. The key is never
 * shown. Where the host has no keychain (Linux without a keyring), it says so, and a key is
 * stored only once the person ticks the box agreeing to an unencrypted file. A key is checked
 * with the API before it is saved; one the API refuses is not saved.
 */
import { useState } from 'react';
import type { ApiKeyCheckView, SettingsView } from '../../../shared/contract';
import { useCove } from '../../store';

const SOURCE_TEXT: Record<SettingsView['apiKey'], string> = {
  stored: 'An API key is stored in Cove.',
  environment: 'The API key comes from the environment (ANTHROPIC_API_KEY). A key stored here takes its place.',
  missing: 'No API key yet: runs cannot start until you add one.',
};

export function ApiKeySection({ source, storage }: { source: SettingsView['apiKey']; storage?: SettingsView['apiKeyStorage'] }) {
  const setApiKey = useCove((state) => state.setApiKey);
  const notify = useCove((state) => state.notify);
  const busy = useCove((state) => state.settingsBusy);
  const [key, setKey] = useState('');
  const [consented, setConsented] = useState(false);
  /** The check of the key as typed; a key the API could not judge may be saved anyway. */
  const [check, setCheck] = useState<{ key: string; verdict: ApiKeyCheckView } | null>(null);
  const [checking, setChecking] = useState(false);
  const checkApiKey = useCove((state) => state.checkApiKey);
  const needsConsent = storage?.keychainProblem !== undefined;
  const typed = key.trim();
  const verdict = check?.key === typed ? check.verdict : null;
  const save = async () => {
    if (await setApiKey(typed, { unprotectedFile: needsConsent && consented })) {
      setKey('');
      setConsented(false);
      setCheck(null);
      notify(verdict?.verdict === 'valid' ? 'API key checked and saved.' : 'API key saved without a check.', 'info');
    }
  };
  return (
    <section className="settings-section" aria-labelledby="settings-api-key">
      <h3 id="settings-api-key">API key</h3>
      <p className={`api-key-source source-${source}`} role="status">
        {SOURCE_TEXT[source]}
      </p>
      {storage?.kind === 'file' && !needsConsent && source === 'stored' ? <p className="api-key-storage">It is kept unencrypted in {storage.file}, readable only by you.</p> : null}
      {needsConsent ? (
        <p className="api-key-storage warning" role="note">
          No keychain can encrypt the key here: {storage?.keychainProblem}.
        </p>
      ) : null}
      <form
        className="settings-form"
        onSubmit={async (event) => {
          event.preventDefault();
          setChecking(true);
          const answer = await checkApiKey(typed);
          setChecking(false);
          if (!answer) return;
          setCheck({ key: typed, verdict: answer });
          if (answer.verdict === 'valid') await save();
        }}
      >
        <label className="field">
          <span>API key</span>
          <input type="password" autoComplete="off" spellCheck={false} value={key} placeholder="sk-ant-…" onChange={(event) => setKey(event.target.value)} />
        </label>
        {needsConsent ? (
          <label className="checkbox-field">
            <input type="checkbox" checked={consented} onChange={(event) => setConsented(event.target.checked)} />
            <span>Keep the key unencrypted in {storage?.file}, readable only by my user account</span>
          </label>
        ) : null}
        {verdict && verdict.verdict !== 'valid' ? (
          <p className={verdict.verdict === 'rejected' ? 'inline-error' : 'api-key-storage warning'} role="alert">
            {verdict.message} {verdict.verdict === 'rejected' ? 'It was not saved.' : ''}
          </p>
        ) : null}
        <div className="button-row">
          <button type="submit" className="primary" disabled={busy || checking || typed === '' || (needsConsent && !consented)}>
            {checking ? 'Checking the key…' : 'Check and save API key'}
          </button>
          {verdict?.verdict === 'unchecked' ? (
            <button type="button" disabled={busy} onClick={() => void save()}>
              Save without checking
            </button>
          ) : null}
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
