/**
 * The MCP hubs of one process: one per workspace, started on first use and shared by every
 * session of that workspace. Servers from the person's own `~/.cove/mcp.json` are trusted;
 * servers declared by a workspace's `.mcp.json` run commands that came with the code, so they
 * start only once the person approved that exact entry (hooks/approvals.ts: `cove approve`, or
 * Approve in the app), or named it in their own `COVE_HOME/settings.json` (`enabledMcpjsonServers`,
 * or `enableAllProjectMcpServers: true`, the names Claude Code uses). Those keys are not read
 * from a workspace's files: any of them, `.cove/settings.local.json` included, can come with a
 * clone, and a repository must not approve its own servers. Until then they are listed as failed
 * with how to approve them.
 */
import { join } from 'node:path';
import type { ToolSource } from '../agent/types';
import { ApprovalStore, mcpServerItems, namedServerApprovals } from '../hooks/approvals';
import type { McpHub, McpServerStatus } from './mcp-hub';
import { loadMcpConfig, mcpConfigFiles, McpConfigError, type McpConfig } from './mcp-config';

export interface WorkspaceMcpStatus {
  workspace: string;
  servers: McpServerStatus[];
  problems: string[];
}

/** The workspace's MCP config with unapproved project servers turned into problems. */
export function approvedConfig(workspace: string, dataDir: string, environment: NodeJS.ProcessEnv = process.env): McpConfig {
  const config = loadMcpConfig({ workspace, dataDir, environment });
  const projectFile = mcpConfigFiles({ workspace, dataDir }).workspace;
  const approved = new Set(mcpServerItems(workspace, new ApprovalStore(dataDir), namedServerApprovals(dataDir)).flatMap((item) => (item.approved ? [item.name] : [])));
  const servers = config.servers.filter((server) => server.file !== projectFile || approved.has(server.name));
  const refused = config.servers
    .filter((server) => !servers.includes(server))
    .map(
      (server) =>
        new McpConfigError(
          server.file,
          server.name,
          `not started: project MCP servers run commands from the repository; approve it with cove approve --workspace ${workspace} or Approve in the app, or add "${server.name}" to enabledMcpjsonServers in ${join(dataDir, 'settings.json')}`,
          server.transport,
        ),
    );
  return { servers, problems: [...config.problems, ...refused] };
}

/**
 * A workspace's hub, created on first use. The MCP SDK is loaded only then, and only when the
 * workspace has servers or problems to report, so a run without MCP does not pay for it.
 */
export class McpRegistry {
  private readonly hubs = new Map<string, Promise<McpHub>>();

  constructor(
    private readonly dataDir: string,
    private readonly log: (message: string) => void = () => {},
  ) {}

  private hubFor(workspace: string, config: McpConfig): Promise<McpHub> {
    let hub = this.hubs.get(workspace);
    if (!hub) {
      hub = import('./mcp-hub').then(({ McpHub }) => {
        const created = new McpHub({ workspace, dataDir: this.dataDir, config, log: this.log });
        void created.start();
        return created;
      });
      this.hubs.set(workspace, hub);
    }
    return hub;
  }

  /** The tool sources of a session: its first workspace's servers (where its commands run). */
  sourcesFor(workspaces: readonly string[]): ToolSource[] {
    const workspace = workspaces[0];
    if (workspace === undefined) return [];
    if (!this.hubs.has(workspace)) {
      const config = approvedConfig(workspace, this.dataDir);
      for (const problem of config.problems) this.log(problem.message);
      if (config.servers.length === 0) return [];
      void this.hubFor(workspace, config);
    }
    const hub = this.hubs.get(workspace)!;
    return [{ name: 'mcp', tools: async (signal) => (await hub).toolSource().tools(signal) }];
  }

  async status(workspace: string): Promise<WorkspaceMcpStatus> {
    const config = approvedConfig(workspace, this.dataDir);
    if (!this.hubs.has(workspace) && config.servers.length === 0) {
      return {
        workspace,
        servers: config.problems.flatMap((p) =>
          p.server === undefined ? [] : [{ name: p.server, transport: p.transport, state: 'failed' as const, error: p.message, toolCount: 0, stderrTail: '' }],
        ),
        problems: config.problems.filter((p) => p.server === undefined).map((p) => p.message),
      };
    }
    const hub = await this.hubFor(workspace, config);
    return {
      workspace,
      servers: hub.status(),
      problems: hub
        .problems()
        .filter((p) => p.server === undefined)
        .map((p) => p.message),
    };
  }

  /** Stops a workspace's servers; the next session that needs them reads its configuration again. */
  async restart(workspace: string): Promise<void> {
    const hub = this.hubs.get(workspace);
    this.hubs.delete(workspace);
    if (hub) await (await hub).close();
  }

  async closeAll(): Promise<void> {
    const hubs = [...this.hubs.values()];
    this.hubs.clear();
    await Promise.allSettled(hubs.map(async (hub) => (await hub).close()));
  }
}
