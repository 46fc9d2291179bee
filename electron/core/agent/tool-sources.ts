/**
 * The tools offered for one run: the agent's own tools, then each source's in installation
 * order. The agent's own tools win name collisions, then earlier sources, then the earlier tool
 * within one source; every dropped duplicate and every failing source is logged, and the run
 * goes on. Sourced tools are sorted by name so that order alone never changes the cached prefix.
 */
import type { Tool, ToolSource } from './types';

export type Logger = (message: string) => void;

export async function resolveTools(own: readonly Tool[], sources: readonly ToolSource[], signal: AbortSignal, log: Logger): Promise<Tool[]> {
  const taken = new Set(own.map((tool) => tool.name));
  const offered = await Promise.all(
    sources.map(async (source) => {
      try {
        return await source.tools(signal);
      } catch (error) {
        log(`tool source ${source.name} failed and contributes no tools: ${(error as Error)?.message ?? String(error)}`);
        return [];
      }
    }),
  );
  const sourced: Tool[] = [];
  offered.forEach((tools, index) => {
    for (const tool of tools) {
      if (taken.has(tool.name)) {
        log(`tool ${tool.name} from source ${sources[index]!.name} is dropped: the name is already taken`);
        continue;
      }
      taken.add(tool.name);
      sourced.push(tool);
    }
  });
  sourced.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...own, ...sourced];
}
