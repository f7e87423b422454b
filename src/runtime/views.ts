/** How the runtime answers with a task or a scenario: the shapes callers asked for. */
import { invalidParams } from '../domain/errors.js';
import type { Task, TaskView } from '../domain/types.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioRegistry, Selection } from '../scenario/registry.js';

/**
 * The task as the caller asked to see it. `artifacts` is listed when there are some, or always
 * when `includeArtifacts` is set (ListTasks: never unless asked).
 */
export function viewOf(
  task: Task,
  options: { historyLength?: number | undefined; includeArtifacts?: boolean },
): TaskView {
  const { historyLength, includeArtifacts } = options;
  // Field by field rather than from a rest spread: see lib/objects.ts.
  const view: TaskView = { id: task.id, contextId: task.contextId, status: task.status };
  if (task.metadata !== undefined) view.metadata = task.metadata;
  if (task.generation !== undefined) view.generation = task.generation;
  if (includeArtifacts ?? task.artifacts.length > 0) view.artifacts = task.artifacts;
  if (historyLength !== 0) {
    view.history = historyLength === undefined ? task.history : task.history.slice(-historyLength);
  }
  return view;
}

/** The scenario a new message plays, or the InvalidParams that says why there is none. */
export function selectedScenario(selection: Selection, registry: ScenarioRegistry): Scenario {
  switch (selection.kind) {
    case 'matched':
      return selection.scenario;
    case 'unknown-id':
      throw invalidParams([
        {
          field: 'message.metadata.scenario',
          description: `no scenario "${selection.id}" is loaded; loaded: ${registry
            .list()
            .map((s) => s.id)
            .join(', ')}`,
        },
      ]);
    case 'none':
      throw invalidParams([
        {
          field: 'message',
          description: 'no scenario matches this message and no fallback scenario is loaded',
        },
      ]);
  }
}
