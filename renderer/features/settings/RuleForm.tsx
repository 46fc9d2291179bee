/**
 * One rule being added or edited: its text, checked as it is typed, which list it goes in and
 * (when adding) which settings file. Saving waits for a valid check, so a mistyped rule is
 * named before it reaches a file rather than refused when the next run loads it.
 */
import { useId, useState } from 'react';
import { useCove } from '../../store';
import type { RuleFile, RuleList } from '../../store/settings-slice';
import { useRuleCheck } from './use-rule-check';

export const FILE_LABELS: Record<RuleFile, string> = {
  user: 'Your settings (every project)',
  project: 'Project settings (shared with the project)',
  local: 'This machine’s grants for the project',
};
const LIST_LABELS: Record<RuleList, string> = { allow: 'Allow', ask: 'Ask', deny: 'Deny' };

interface Props {
  /** The files a new rule may go to; one file when editing. */
  files: RuleFile[];
  initial?: { file: RuleFile; list: RuleList; rule: string };
  onDone(): void;
}

export function RuleForm({ files, initial, onDone }: Props) {
  const saveRule = useCove((state) => state.saveRule);
  const busy = useCove((state) => state.settingsBusy);
  const [text, setText] = useState(initial?.rule ?? '');
  const [list, setList] = useState<RuleList>(initial?.list ?? 'allow');
  const [file, setFile] = useState<RuleFile>(initial?.file ?? files[0]!);
  const check = useRuleCheck(text);
  const hintId = useId();
  const unchanged = initial !== undefined && text.trim() === initial.rule && list === initial.list;
  const canSave = check?.valid === true && !busy && !unchanged;
  return (
    <form
      className="rule-form"
      aria-label={initial ? `Edit rule ${initial.rule}` : 'Add a rule'}
      onSubmit={async (event) => {
        event.preventDefault();
        if (!canSave) return;
        // An edit that moves a rule to another list is a delete there and an add here.
        const replaces = initial && initial.list === list ? initial.rule : undefined;
        if (!(await saveRule(file, list, check.rule, replaces))) return;
        if (initial && initial.list !== list) await useCove.getState().removeRule(initial.file, initial.list, initial.rule);
        onDone();
      }}
    >
      <label className="field rule-text">
        <span>Rule</span>
        <input
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="bash(npm test), edit_file(src/**), web_fetch(domain:example.com)"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={check?.valid === false}
          aria-describedby={hintId}
          autoFocus
        />
      </label>
      <label className="field">
        <span>List</span>
        <select value={list} onChange={(event) => setList(event.target.value as RuleList)}>
          {(Object.keys(LIST_LABELS) as RuleList[]).map((value) => (
            <option key={value} value={value}>
              {LIST_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      {files.length > 1 ? (
        <label className="field">
          <span>Settings file</span>
          <select value={file} onChange={(event) => setFile(event.target.value as RuleFile)}>
            {files.map((value) => (
              <option key={value} value={value}>
                {FILE_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <p id={hintId} className={`rule-check ${check?.valid === false ? 'inline-error' : 'hint'}`} role="status">
        {text.trim() === '' ? 'Tool or Tool(specifier), as in the settings files.' : check === undefined ? 'Checking…' : check.valid ? `✓ ${check.rule}` : check.message}
      </p>
      <div className="button-row">
        <button type="submit" className="primary" disabled={!canSave}>
          {initial ? 'Save rule' : 'Add rule'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
