/** MCP servers as a tool source (SPEC §10). */
export { McpHub, type McpHubOptions, type McpServerStatus, type ServerState, type StatusListener } from './mcp-hub';
export {
  loadMcpConfig,
  mcpConfigFiles,
  readMcpFile,
  McpConfigError,
  type McpConfig,
  type McpConfigLocation,
  type McpServerConfig,
  type StdioServerConfig,
  type HttpServerConfig,
} from './mcp-config';
