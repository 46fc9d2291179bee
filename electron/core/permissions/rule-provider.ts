/** The settings screen's view of a workspace's permission rules, and deletion of saved grants. */
import type { RuleSource } from '../../../shared/contract';
import { loadPermissionSettings, removeLocalRule } from './settings';

export interface RuleProvider {
  sources(workspace: string | undefined): { sources: RuleSource[]; problems: string[] };
  remove(workspace: string, list: 'allow' | 'ask' | 'deny', rule: string): void;
}

export function createRuleProvider(coveHome: string, onChange: () => void): RuleProvider {
  return {
    sources(workspace) {
      try {
        const loaded = loadPermissionSettings({ workspaceRoots: workspace ? [workspace] : [], coveHome });
        return {
          sources: loaded.sources.map((source) => ({ path: source.path, kind: source.kind, rules: source.rules, editable: source.kind === 'local' })),
          problems: loaded.warnings,
        };
      } catch (error) {
        return { sources: [], problems: [(error as Error).message] };
      }
    },
    remove(workspace, list, rule) {
      removeLocalRule(workspace, list, rule);
      onChange();
    },
  };
}
