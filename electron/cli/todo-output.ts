/** The agent's task list as `cove run` shows it on stderr: one line per item, a mark for its status. */
import type { TodoItem } from '../../shared/events';

const MARK = { pending: '☐', in_progress: '▶', completed: '☑' } as const;

export function todoLines(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return '  tasks: (cleared)\n';
  const done = todos.filter((todo) => todo.status === 'completed').length;
  return `  tasks (${done}/${todos.length} done):\n${todos.map((todo) => `    ${MARK[todo.status]} ${todo.content}\n`).join('')}`;
}
