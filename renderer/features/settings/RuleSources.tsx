/** Permission rules of the open workspace, per settings file; saved grants can be deleted. */
import { useCove } from '../../store';
import type { PermissionRules, RuleSource } from '../../../shared/contract';

const LISTS: (keyof PermissionRules)[] = ['allow', 'ask', 'deny'];
const KIND_LABELS: Record<RuleSource['kind'], string> = {
  user: 'Your settings',
  project: 'Project settings',
  local: 'This machine’s grants for the project',
  claude: 'Claude Code settings',
};

export function RuleSources() {
  const sources = useCove((state) => state.settings?.ruleSources ?? []);
  const workspace = useCove((state) => state.settingsWorkspace);
  const removeRule = useCove((state) => state.removeRule);
  const busy = useCove((state) => state.settingsBusy);
  return (
    <section className="settings-section" aria-labelledby="settings-rules">
      <h3 id="settings-rules">Rules{workspace ? ` for ${workspace}` : ''}</h3>
      {!workspace ? <p className="hint">Open a session to see the rules of its folder.</p> : null}
      {workspace && sources.length === 0 ? <p className="hint">No settings files with rules.</p> : null}
      {sources.map((source) => (
        <div key={source.path} className="rule-source">
          <h4>
            {KIND_LABELS[source.kind]} <code className="path">{source.path}</code>
          </h4>
          {LISTS.every((list) => source.rules[list].length === 0) ? <p className="hint">No rules.</p> : null}
          {LISTS.filter((list) => source.rules[list].length > 0).map((list) => (
            <div key={list} className="rule-list">
              <span className={`rule-kind rule-${list}`}>{list}</span>
              <ul aria-label={`${list} rules in ${source.path}`}>
                {source.rules[list].map((rule) => (
                  <li key={rule}>
                    <code>{rule}</code>
                    {source.editable ? (
                      <button type="button" className="link-button" disabled={busy} aria-label={`Delete ${list} rule ${rule}`} onClick={() => void removeRule(list, rule)}>
                        Delete
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}
