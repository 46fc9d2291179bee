/**
 * `todo_write`: the agent's task list, in Claude Code's TodoWrite semantics: the whole list is
 * sent every time, so the latest call is the list and nothing has to be merged. At most one
 * item may be in progress: the list is a plan the person reads, and two "doing now" rows would
 * tell them nothing about what the agent is actually on.
 */
import { z } from 'zod';
import { ToolError, type ToolResult } from '../agent/types';
import { defineTool } from './define-tool';
import type { TodoItem, TodoStatus } from '../../../shared/events';

const STATUSES = ['pending', 'in_progress', 'completed'] as const satisfies readonly TodoStatus[];
export const MAX_TODOS = 100;
const MAX_CONTENT = 500;

const DESCRIPTION = `Keep a task list for the current work, shown to the person as a live checklist.

Send the whole list each time (it replaces the previous one): each item has content (what to do, in a few words) and status: pending, in_progress or completed. Keep exactly one item in_progress while you work, mark it completed as soon as it is done, then start the next. Use it for work of three or more steps; skip it for a single quick change.`;

const schema = z.strictObject({
  todos: z
    .array(
      z.strictObject({
        content: z.string().min(1).max(MAX_CONTENT),
        status: z.enum(STATUSES),
      }),
    )
    .max(MAX_TODOS),
});

export const todoWriteTool = defineTool({
  name: 'todo_write',
  label: 'Task list',
  description: DESCRIPTION,
  schema,
  sensitivity: 'readOnly',
  kind: 'think',
  permission: 'none',
  summary: (args) => {
    const current = args.todos.find((todo) => todo.status === 'in_progress');
    return current ? current.content : `${args.todos.length} tasks`;
  },
  execute: async (params) => writeTodos(params),
});

export function writeTodos(params: { todos: readonly TodoItem[] }): ToolResult {
  const todos = checkTodos(params.todos);
  const done = todos.filter((todo) => todo.status === 'completed').length;
  const lines = todos.map((todo) => `${MARK[todo.status]} ${todo.content}`);
  const text = todos.length === 0 ? 'Task list cleared.' : `Task list updated (${done} of ${todos.length} done):\n${lines.join('\n')}`;
  return { content: [{ type: 'text', text }], details: { todos } };
}

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

function checkTodos(todos: unknown): TodoItem[] {
  if (!Array.isArray(todos)) throw ToolError.invalidArgs('todos must be an array of {content, status}');
  if (todos.length > MAX_TODOS) throw ToolError.invalidArgs(`todos holds ${todos.length} items; keep the list to ${MAX_TODOS} at most`);
  const checked = todos.map((todo, index): TodoItem => {
    const content = typeof todo?.content === 'string' ? todo.content.trim() : '';
    if (!content) throw ToolError.invalidArgs(`todos[${index}].content must be a non-empty string`);
    if (!STATUSES.includes(todo.status)) throw ToolError.invalidArgs(`todos[${index}].status must be one of ${STATUSES.join(', ')} (got ${JSON.stringify(todo.status)})`);
    return { content: content.slice(0, MAX_CONTENT), status: todo.status };
  });
  const doing = checked.filter((todo) => todo.status === 'in_progress');
  if (doing.length > 1) {
    throw ToolError.invalidArgs(
      `${doing.length} items are in_progress (${doing.map((todo) => JSON.stringify(todo.content)).join(', ')}); keep exactly one in_progress and the others pending or completed`,
    );
  }
  return checked;
}

/** The list a finished `todo_write` call set, or undefined for any other result. */
export function todosOfResult(toolName: string, isError: boolean, details: unknown): TodoItem[] | undefined {
  if (toolName !== 'todo_write' || isError) return undefined;
  const todos = (details as { todos?: unknown } | undefined)?.todos;
  return Array.isArray(todos) ? (todos as TodoItem[]) : undefined;
}
