/**
 * The settings screen's view of a workspace's permission rules, and their editing: the person's
 * own file, the project's shared file and this machine's grants for the project. Claude Code's
 * settings are read, never written: Cove maps its rules and would not write them back the same.
 */
import type { RuleSource } from '../../../shared/contract';
import { SETTINGS_FILE, userSettingsPath } from '../settings/settings-files';
import { parseRule } from './rule-syntax';
import { loadPermissionSettings, localSettingsPath, updateRules, type RuleLists } from './settings';
import { join } from 'node:path';

export type RuleList = keyof RuleLists;
export type EditableRuleFile = 'user' | 'project' | 'local';

export interface RuleEdit {
  /** The workspace a project or local file belongs to; not needed for the person's own file. */
  workspace?: string;
  file: EditableRuleFile;
  list: RuleList;
  rule: string;
  /** The rule this one takes the place of, in the same list (an edit), kept at its position. */
  replaces?: string;
}

export type RuleCheck = { valid: true; rule: string } | { valid: false; message: string };

export interface RuleProvider {
  sources(workspace: string | undefined): { sources: RuleSource[]; problems: string[] };
  /** Adds a rule, or edits one in place; throws with the rule and the file named when it cannot. */
  save(edit: RuleEdit): void;
  remove(edit: Omit<RuleEdit, 'replaces'>): void;
}

/** The rule syntax check behind "as you type": the same parser the permission engine loads rules with. */
export function checkRuleText(text: string): RuleCheck {
  try {
    return { valid: true, rule: parseRule(text).text };
  } catch (error) {
    return { valid: false, message: (error as Error).message };
  }
}

const EDITABLE: ReadonlySet<RuleSource['kind']> = new Set<EditableRuleFile>(['user', 'project', 'local']);

export function createRuleProvider(coveHome: string, onChange: () => void): RuleProvider {
  const pathOf = ({ file, workspace }: Pick<RuleEdit, 'file' | 'workspace'>): string => {
    if (file === 'user') return userSettingsPath(coveHome);
    if (!workspace) throw new Error(`a ${file} rule needs the workspace it belongs to`);
    return file === 'local' ? localSettingsPath(workspace) : join(workspace, '.cove', SETTINGS_FILE);
  };
  return {
    sources(workspace) {
      try {
        const loaded = loadPermissionSettings({ workspaceRoots: workspace ? [workspace] : [], coveHome });
        return {
          sources: loaded.sources.map((source) => ({ path: source.path, kind: source.kind, rules: source.rules, editable: EDITABLE.has(source.kind) })),
          problems: loaded.warnings,
        };
      } catch (error) {
        return { sources: [], problems: [(error as Error).message] };
      }
    },
    save(edit) {
      const text = parseRule(edit.rule).text;
      updateRules(
        pathOf(edit),
        edit.list,
        (rules) => {
          const without = rules.filter((existing) => existing !== text);
          const at = edit.replaces === undefined ? -1 : without.indexOf(edit.replaces);
          if (edit.replaces !== undefined && at < 0) throw new Error(`the ${edit.list} rule ${edit.replaces} is no longer in ${pathOf(edit)}; reload Settings`);
          if (at < 0) return [...without, text];
          return [...without.slice(0, at), text, ...without.slice(at + 1)];
        },
        edit.replaces === undefined ? `add the rule ${text}` : `change the rule ${edit.replaces} to ${text}`,
      );
      onChange();
    },
    remove(edit) {
      updateRules(pathOf(edit), edit.list, (rules) => rules.filter((existing) => existing !== edit.rule), `remove the rule ${edit.rule}`);
      onChange();
    },
  };
}
