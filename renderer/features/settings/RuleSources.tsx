/** Permission rules per settings file: added, edited and deleted here, except in Claude Code's files (read only). */
import { useState } from 'react';
import { useCove } from '../../store';
import type { RuleFile, RuleList } from '../../store/settings-slice';
import type { RuleSource } from '../../../shared/contract';
import { FILE_LABELS, RuleForm } from './RuleForm';

const LISTS: RuleList[] = ['allow', 'ask', 'deny'];
const KIND_LABELS: Record<RuleSource['kind'], string> = {
  user: 'Your settings',
  project: 'Project settings',
  local: 'This machine’s grants for the project',
  claude: 'Claude Code settings (read only)',
};

export function RuleSources() {
  const sources = useCove((state) => state.settings?.ruleSources ?? []);
  const workspace = useCove((state) => state.settingsWorkspace);
  const [adding, setAdding] = useState(false);
  const files: RuleFile[] = workspace ? ['local', 'project', 'user'] : ['user'];
  return (
    <section className="settings-section" aria-labelledby="settings-rules">
      <div className="section-heading">
        <h3 id="settings-rules">Rules{workspace ? ` for ${workspace}` : ''}</h3>
        {adding ? null : (
          <button type="button" className="small" onClick={() => setAdding(true)}>
            Add a rule
          </button>
        )}
      </div>
      {adding ? <RuleForm files={files} onDone={() => setAdding(false)} /> : null}
      {!workspace ? <p className="hint">Open a session to see the rules of its folder; your own rules are below.</p> : null}
      {sources.length === 0 ? <p className="hint">No settings files with rules.</p> : null}
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
                  <RuleRow key={rule} source={source} list={list} rule={rule} />
                ))}
              </ul>
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}

function RuleRow({ source, list, rule }: { source: RuleSource; list: RuleList; rule: string }) {
  const removeRule = useCove((state) => state.removeRule);
  const busy = useCove((state) => state.settingsBusy);
  const [editing, setEditing] = useState(false);
  const file = source.kind === 'claude' ? undefined : source.kind;
  if (editing && file) {
    return (
      <li>
        <RuleForm files={[file]} initial={{ file, list, rule }} onDone={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li>
      <code>{rule}</code>
      {source.editable && file ? (
        <>
          <button type="button" className="link-button" disabled={busy} aria-label={`Edit ${list} rule ${rule}`} onClick={() => setEditing(true)}>
            Edit
          </button>
          <button
            type="button"
            className="link-button"
            disabled={busy}
            aria-label={`Delete ${list} rule ${rule}`}
            title={`Delete from ${FILE_LABELS[file]}`}
            onClick={() => void removeRule(file, list, rule)}
          >
            Delete
          </button>
        </>
      ) : null}
    </li>
  );
}
