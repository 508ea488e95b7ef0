/**
 * Student e-mails appear only in the audit channel, the audit table (a student's history is found by
 * address) and the actor's own replies: log lines carry them masked, also where a server's refusal
 * quotes the address.
 */
import { describe, expect, it } from 'vitest';
import { maskEmailsIn } from '../../src/kernel/domain/email.js';
import { BadRequestError } from '../../src/kernel/licensing/errors.js';
import { createAuditLog } from '../../src/kernel/services/audit.js';
import { createLogger } from '../../src/kernel/slack/logger.js';

const REFUSAL = 'ada.lovelace@contoso.com is already enrolled in Mastering DAX (license 4001).';

describe('e-mail addresses stay out of logs', () => {
  it('masks every address in free text, and nothing else', () => {
    expect(maskEmailsIn(`${REFUSAL} Cc: bob@fabrikam.co.uk`)).toBe(
      'a***@contoso.com is already enrolled in Mastering DAX (license 4001). Cc: b***@fabrikam.co.uk',
    );
    expect(maskEmailsIn('pool 2007 at 09:00, v1.2')).toBe('pool 2007 at 09:00, v1.2');
  });

  it('masks addresses in any script: Unicode local parts, internationalised and punycode domains', () => {
    const cases: [string, string][] = [
      ['josé@exämple.com', 'j***@exämple.com'],
      ['søren@gmail.com', 's***@gmail.com'],
      ['Zoë.Ünal@hotmail.de', 'Z***@hotmail.de'],
      ['Zoë.Ünal@xn--exmple-cua.com', 'Z***@xn--exmple-cua.com'],
      ['李雷@例子.公司', '李***@例子.公司'],
      ['user＠例え。テスト', 'u***＠例え。テスト'],
      ["o'brien@contoso.com", 'o***@contoso.com'],
      ['😀x@mail.com', '😀***@mail.com'],
      ['"ada lovelace"@contoso.com', 'a***@contoso.com'],
      ['ops@[192.0.2.1]', 'o***@[192.0.2.1]'],
    ];
    for (const [address, masked] of cases) {
      expect(maskEmailsIn(`refused: ${address}.`)).toBe(`refused: ${masked}.`);
    }
  });

  it('inside a JSON line (escapes, quotes, keys), masks the whole local part and keeps the line valid JSON', () => {
    const values = {
      plain: 'josé@exämple.com',
      quoted: 'write to "ada lovelace"@contoso.com',
      afterNewline: 'line\nsøren@gmail.com',
      notAnAddress: '@contoso.com',
      list: ['@fabrikam.com', 'v1.2@latest'],
    };
    // As another serialiser may write it: non-ASCII as \u escapes.
    const escaped = '{"escaped":"Zo\\u00eb\\u00dcnal@hotmail.de","literal":"\\\\u00dcnal@hotmail.de"}';
    const line = maskEmailsIn(`${JSON.stringify(values)}\n${escaped}`);
    const [first = '', second = ''] = line.split('\n');
    expect(JSON.parse(first)).toEqual({
      plain: 'j***@exämple.com',
      quoted: 'write to a***@contoso.com',
      afterNewline: 'line\n***@gmail.com',
      notAnAddress: '@contoso.com',
      list: ['@fabrikam.com', 'v1.2@latest'],
    });
    expect(JSON.parse(second)).toEqual({ escaped: 'Z***@hotmail.de', literal: '\\u***@hotmail.de' });
    expect(line).not.toMatch(/osé|ada lovelace|øren|u00eb|nal@/);
  });

  it('a log line quoting a refusal, as a field or inside an error, shows no full address', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    logger.warn('assign refused', {
      detail: REFUSAL,
      error: new BadRequestError(REFUSAL, { endpoint: 'POST /v1/pool/{id}/license' }),
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('ada.lovelace@contoso.com');
    expect(lines[0]).toContain('a***@contoso.com');
    expect(JSON.parse(lines[0] ?? '{}').message).toBe('assign refused');
  });

  it('the audit log line masks the address in the detail too; the entry keeps it for the audit post', async () => {
    const lines: string[] = [];
    const audit = createAuditLog({ logger: createLogger({ level: 'info', write: (l) => lines.push(l) }) });
    await audit.record({
      at: '2026-11-21T10:00:00+00:00',
      actor: 'U0MGR00001',
      action: 'assign',
      outcome: 'refused',
      studentEmail: 'ada.lovelace@contoso.com',
      detail: `The licensing service refused this: ${REFUSAL}`,
    });
    const written = lines.join('\n');
    expect(written).not.toContain('ada.lovelace@contoso.com');
    expect(written).toContain('a***@contoso.com is already enrolled');
    expect((await audit.recent(1))[0]?.studentEmail).toBe('ada.lovelace@contoso.com');
  });
});
