import { describe, expect, it } from 'vitest';
import { buildExportProgressMessage } from '../../../src/export/blocks/export-progress.js';

describe('buildExportProgressMessage', () => {
  it('says the page, the estimated total and the time left in words', () => {
    const at = (msLeft: number | undefined) =>
      buildExportProgressMessage({ kind: 'running', what: 'every license', pagesDone: 40, pagesTotal: 155, msLeft })
        .text;
    expect(at(180_000)).toContain('page 40 of about 155, about 3 min left');
    expect(at(20_000)).toContain('less than a minute left');
    expect(at(3 * 3_600_000)).toContain('about 3 h left');
    expect(at(undefined)).toMatch(/page 40 of about 155\. /);
  });

  it('never shows fewer pages in all than read, and escapes what is exported', () => {
    const m = buildExportProgressMessage({
      kind: 'running',
      what: 'pool <!channel>',
      pagesDone: 9,
      pagesTotal: 3,
      msLeft: 0,
    });
    expect(m.text).toContain('page 9 of about 9');
    expect(m.text).not.toContain('<!channel>');
    expect(buildExportProgressMessage({ kind: 'done', what: 'x', rows: 1, pages: 2 }).text).toContain(
      '1 row from 2 pages',
    );
  });
});
