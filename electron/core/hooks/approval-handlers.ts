/**
 * The contract requests that list and approve what a project brings. Every run reads its hooks
 * and their approvals again, so approving needs nothing more for hooks (and keeps the grants a
 * person gave for the session); the workspace's MCP servers are restarted, so the next run
 * starts the approved ones without restarting Cove.
 */
import type { ProjectApprovalsView } from '../../../shared/contract';
import type { Handlers } from '../api/dispatch';
import { checkWorkspace } from '../api/workspace-paths';
import type { McpRegistry } from '../mcp/mcp-registry';
import { ApiError } from '../api/dispatch';
import { ApprovalsError, approveProject, projectItems } from './approvals';

export interface ApprovalContext {
  dataDir: string;
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
      if (approved.some((item) => item.kind === 'mcpServer')) await context.mcp?.restart(path);
      return view(context.dataDir, path);
    },
  };
}
