/**
 * The hosts a session's allow rules name for `web_fetch`, read from the settings files at each
 * call, so a rule saved from a prompt ("always allow") opens its host from the next fetch on.
 */
import { loadPermissionSettings } from '../permissions/settings';
import { webFetchHostPatterns, type HostPattern } from './host-rule';

export function allowedHostsOf(workspaces: readonly string[], coveHome: string, extraAllow: readonly string[] = [], log: (message: string) => void = () => {}): () => HostPattern[] {
  return () => {
    let rules: string[] = [...extraAllow];
    try {
      const { sources } = loadPermissionSettings({ workspaceRoots: workspaces, coveHome });
      rules = [...sources.flatMap((source) => source.rules.allow), ...rules];
    } catch (error) {
      // The permission gate reports a broken file; here it opens no host.
      log((error as Error).message);
    }
    return webFetchHostPatterns(rules);
  };
}
