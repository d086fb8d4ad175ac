/** Runs the widget tasks one after the other on one set of page tools, each from a fresh load of its page. */
import { runTask, type PageTools, type TaskResult } from './solver';
import { TASKS, type WidgetTask } from './tasks';
import type { WidgetSite } from './widget-site';

/** Every task's outcome on `tools`, in the order of `tasks`. */
export async function runSuite(
  tools: PageTools,
  site: WidgetSite,
  tasks: readonly WidgetTask[] = TASKS,
): Promise<TaskResult[]> {
  const results: TaskResult[] = [];
  for (const task of tasks) results.push(await runTask(task, tools, site.page(task.page)));
  return results;
}
