/**
 * How a session's permission asks reach people: through its pending prompts, with the change a
 * file edit would make and the marks of what a bash command writes, deletes or reaches out to.
 */
import type { SecretRedactor, SnapshotStore, Tool } from '../agent/types';
import type { SessionRecord } from '../store';
import { previewingPrompter } from '../checkpoints/permission-preview';
import { markingPrompter } from '../permissions/command-marks';
import type { PermissionPrompts, Prompter } from './permission-prompts';
import type { SubagentCalls } from './subagent-calls';

export interface PrompterParts {
  prompts: PermissionPrompts;
  subagentCalls: SubagentCalls;
  tools(): Tool[];
  snapshots: SnapshotStore;
  secrets(): SecretRedactor | Promise<SecretRedactor>;
}

export function sessionPrompter(session: SessionRecord, parts: PrompterParts): Prompter {
  // A file edit's prompt carries the change it would make (SPEC §13).
  const asking: Prompter = (request, signal) => parts.prompts.prompterFor(session.id, parts.subagentCalls.of(request.toolCallId))(request, signal);
  const previewing = previewingPrompter(asking, parts.tools, {
    workspaceRoots: session.workspaces,
    snapshots: parts.snapshots,
    secrets: parts.secrets,
  });
  // A bash prompt marks what in the command writes, deletes, or reaches out (issue 13).
  return markingPrompter(previewing, { roots: session.workspaces, secrets: parts.secrets });
}
