import { workspaceSections } from '../../../src/platform/embedded/teamToolsViewer';

/** The team page's plan, tags and apps sections: what templates and requests named, escaped. */
describe("the embedded team page's plan, tags and apps", () => {
  const hostile = '<script>alert(1)</script>';

  test('every name is escaped, and a page without them has no such section', () => {
    const html = workspaceSections({
      plans: [
        {
          id: 'p"1',
          title: hostile,
          buckets: [
            {
              id: 'b1',
              name: `Bucket ${hostile}`,
              tasks: [
                {
                  title: `Task ${hostile}`,
                  dueDateTime: '2026-12-01T12:00:00.000Z',
                  checklist: [{ id: 'c1', title: `Item ${hostile}`, isChecked: true }],
                },
              ],
            },
          ],
        },
      ],
      tags: [{ displayName: `Tag ${hostile}`, description: hostile, members: [`Ann ${hostile}`] }],
      apps: [{ id: 'x', displayName: `App ${hostile}` }],
    }).join('\n');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('id="plan-p&quot;1"');
    expect(html).toContain(
      'Task &lt;script&gt;alert(1)&lt;/script&gt; <span class="muted">due 2026-12-01</span>',
    );
    expect(html).toContain('☑ Item &lt;script&gt;');
    expect(workspaceSections({ plans: [], tags: [], apps: [] })).toEqual([]);
  });
});
