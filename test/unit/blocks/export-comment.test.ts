/** The export file's comment is mrkdwn: a course title from the licensing service is escaped. */
import { describe, expect, it } from 'vitest';
import { buildExportComment } from '../../../src/export/blocks/export-comment.js';

describe('export comment', () => {
  it('escapes the course title, so <!channel> in a title pings nobody', () => {
    const text = buildExportComment({
      rows: 2,
      pool: { id: '2001', course: { title: 'DAX <!channel> & <@U1>' } },
      sandbox: false,
    });
    expect(text).toContain('DAX &lt;!channel&gt; &amp; &lt;@U1&gt;');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('Your export: 2 licenses of pool 2001');
  });
});
