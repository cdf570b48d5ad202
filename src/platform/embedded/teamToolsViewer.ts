import { escapeMarkup as escapeHtml } from '../../lib/markup';
import type { WorkspaceView } from './workspaceView';

/**
 * The sections of a team's page (`viewer.ts`) that show what a template built inside it besides
 * channels: its plan (buckets in order, their tasks with due dates and checklists), its tags with
 * their members, and the apps installed in it. Every text is escaped (names come from templates).
 */
export function workspaceSections(workspace: WorkspaceView): string[] {
  const sections: string[] = [];
  for (const plan of workspace.plans) {
    const buckets = plan.buckets.map((bucket) => {
      const tasks = bucket.tasks.map((task) => {
        const due = task.dueDateTime
          ? ` <span class="muted">due ${escapeHtml(task.dueDateTime.slice(0, 10))}</span>`
          : '';
        const checklist =
          task.checklist.length > 0
            ? `<ul>${task.checklist
                .map((item) => `<li>${item.isChecked ? '☑' : '☐'} ${escapeHtml(item.title)}</li>`)
                .join('')}</ul>`
            : '';
        return `<li>${escapeHtml(task.title)}${due}${checklist}</li>`;
      });
      const list = tasks.length > 0 ? `<ul>${tasks.join('\n')}</ul>` : '<p class="muted">No task.</p>';
      return `<h3>${escapeHtml(bucket.name)}</h3>${list}`;
    });
    sections.push(
      `<section id="plan-${escapeHtml(plan.id)}"><h2>Plan: ${escapeHtml(plan.title)}</h2>${buckets.join('\n')}</section>`,
    );
  }
  if (workspace.tags.length > 0) {
    const tags = workspace.tags.map(
      (tag) =>
        `<li>${escapeHtml(tag.displayName)}` +
        (tag.description ? ` <span class="muted">${escapeHtml(tag.description)}</span>` : '') +
        `: ${tag.members.map((m) => escapeHtml(m)).join(', ')}</li>`,
    );
    sections.push(`<section><h2>Tags (${workspace.tags.length})</h2><ul>${tags.join('\n')}</ul></section>`);
  }
  if (workspace.apps.length > 0) {
    const apps = workspace.apps.map((app) => `<li>${escapeHtml(app.displayName)}</li>`);
    sections.push(
      `<section><h2>Installed apps (${workspace.apps.length})</h2><ul>${apps.join('\n')}</ul></section>`,
    );
  }
  return sections;
}
