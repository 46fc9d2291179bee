/** The agent's task list (its latest todo_write), live in the session header. */
import type { TodoItem } from '../../../shared/events';
import { useCove } from '../../store';

const STATUS_LABEL: Record<TodoItem['status'], string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' };

export function TodoChecklist({ sessionId }: { sessionId: string }) {
  const todos = useCove((state) => (state.transcript?.sessionId === sessionId ? state.transcript.state.todos : null));
  if (!todos || todos.length === 0) return null;
  const done = todos.filter((todo) => todo.status === 'completed').length;
  return (
    <section className="todo-checklist" aria-label="Task list">
      <h2 className="todo-heading">
        Tasks{' '}
        <span className="todo-count">
          {done} of {todos.length} done
        </span>
      </h2>
      <ul>
        {todos.map((todo, index) => (
          <li key={`${index}:${todo.content}`} className={`todo todo-${todo.status}`}>
            <span className="todo-mark" aria-hidden="true">
              {todo.status === 'completed' ? '☑' : todo.status === 'in_progress' ? '▶' : '☐'}
            </span>
            <span className="todo-content">{todo.content}</span>
            <span className="visually-hidden"> ({STATUS_LABEL[todo.status]})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
