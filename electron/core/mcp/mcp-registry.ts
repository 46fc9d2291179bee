/**
 * The MCP hubs of one process: one per workspace, started on first use and shared by every
 * session of that workspace. Servers from the person's own `~/.cove/mcp.json` are trusted;
 * servers declared by a workspace's `.mcp.json` run commands that came with the code, so they
 * start only once approved in a settings file (`enabledMcpjsonServers`, or
 * `enableAllProjectMcpServers: true`, the names Claude Code uses); until then they are listed
 * as failed with the line to add.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolSource } from '../agent/types';
import { McpHub, type McpServerStatus } from './mcp-hub';
import { loadMcpConfig, mcpConfigFiles, McpConfigError, type McpConfig } from './mcp-config';

export interface WorkspaceMcpStatus {
  workspace: string;
  servers: McpServerStatus[];
  problems: string[];
}

function approvals(paths: string[]): { all: boolean; names: Set<string> } {
  const names = new Set<string>();
  let all = false;
  for (const path of paths) {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch {
      // Missing files approve nothing; malformed ones are reported by the permission settings.
      continue;
    }
    if (data.enableAllProjectMcpServers === true) all = true;
    if (Array.isArray(data.enabledMcpjsonServers)) for (const name of data.enabledMcpjsonServers) if (typeof name === 'string') names.add(name);
  }
  return { all, names };
}

/** The workspace's MCP config with unapproved project servers turned into problems. */
export function approvedConfig(workspace: string, dataDir: string, environment: NodeJS.ProcessEnv = process.env): McpConfig {
  const config = loadMcpConfig({ workspace, dataDir, environment });
  const projectFile = mcpConfigFiles({ workspace, dataDir }).workspace;
  const approved = approvals([join(dataDir, 'settings.json'), join(workspace, '.cove', 'settings.json'), join(workspace, '.cove', 'settings.local.json')]);
  const servers = config.servers.filter((server) => server.file !== projectFile || approved.all || approved.names.has(server.name));
  const refused = config.servers
    .filter((server) => !servers.includes(server))
    .map(
      (server) =>
        new McpConfigError(
          server.file,
          server.name,
          `not started: project MCP servers run commands from the repository; approve it by adding "${server.name}" to enabledMcpjsonServers in ${join(workspace, '.cove', 'settings.local.json')}`,
          server.transport,
        ),
    );
  return { servers, problems: [...config.problems, ...refused] };
}

export class McpRegistry {
  private readonly hubs = new Map<string, McpHub>();

  constructor(
    private readonly dataDir: string,
    private readonly log: (message: string) => void = () => {},
  ) {}

  hubFor(workspace: string): McpHub {
    let hub = this.hubs.get(workspace);
    if (!hub) {
      hub = new McpHub({ workspace, dataDir: this.dataDir, config: approvedConfig(workspace, this.dataDir), log: this.log });
      this.hubs.set(workspace, hub);
      for (const problem of hub.problems()) this.log(problem.message);
      void hub.start();
    }
    return hub;
  }

  /** The tool sources of a session: its first workspace's servers (where its commands run). */
  sourcesFor(workspaces: readonly string[]): ToolSource[] {
    return workspaces.length > 0 ? [this.hubFor(workspaces[0]!).toolSource()] : [];
  }

  status(workspace: string): WorkspaceMcpStatus {
    const hub = this.hubFor(workspace);
    return { workspace, servers: hub.status(), problems: hub.problems().filter((p) => p.server === undefined).map((p) => p.message) };
  }

  async closeAll(): Promise<void> {
    const hubs = [...this.hubs.values()];
    this.hubs.clear();
    await Promise.allSettled(hubs.map((hub) => hub.close()));
  }
}
