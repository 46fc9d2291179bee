/**
 * The contract requests that list and approve what a project brings. Approving forgets the
 * sessions' hooks and gates and restarts the workspace's MCP servers, so the next run uses what
 * was approved without restarting Cove.
 */
import type { ProjectApprovalsView } from '../../../shared/contract';
import type { Handlers } from '../api/dispatch';
import { checkWorkspace } from '../api/workspace-paths';
import type { McpRegistry } from '../mcp/mcp-registry';
import type { SessionManager } from '../sessions/session-manager';
import { ApiError } from '../api/dispatch';
import { ApprovalsError, approveProject, projectItems } from './approvals';

export interface ApprovalContext {
  dataDir: string;
  manager: SessionManager;
  mcp?: McpRegistry;
}

function view(dataDir: string, workspace: string): ProjectApprovalsView {
  try {
    return { workspace, items: projectItems(dataDir, workspace), problems: [] };
  } catch (error) {
    return { workspace, items: [], problems: [(error as Error).message] };
  }
}

export function approvalHandlers(context: ApprovalContext): Pick<Handlers, 'approval:list' | 'approval:approve'> {
  return {
    'approval:list': async ({ workspace }) => view(context.dataDir, (await checkWorkspace(workspace)).path),
    'approval:approve': async ({ workspace, ids }) => {
      const { path } = await checkWorkspace(workspace);
      let approved;
      try {
        approved = approveProject(context.dataDir, path, ids);
      } catch (error) {
        if (error instanceof ApprovalsError) throw ApiError.notFound(error.message);
        throw error;
      }
      if (approved.length > 0) {
        context.manager.reloadPermissions();
        if (approved.some((item) => item.kind === 'mcpServer')) await context.mcp?.restart(path);
      }
      return view(context.dataDir, path);
    },
  };
}
