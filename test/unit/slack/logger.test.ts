/** A log line's own fields (time, level, message, component) are never overwritten by a caller's. */
import { describe, expect, it } from 'vitest';
import { createLogger, toBoltLogger } from '../../../src/kernel/slack/logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'debug', write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) });
  return { logger, lines };
}

describe('log lines keep their own fields', () => {
  it('colliding caller fields go under `fields`; the rest stay at the top level', () => {
    const { logger, lines } = capture();
    logger
      .child({ component: 'desk' })
      .warn('alerts on', { time: '09:00', level: 'loud', message: 'hi', component: 'x', fields: 1, channel: 'C1' });
    const line = lines[0] ?? {};
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(line).toMatchObject({ level: 'warn', component: 'desk', message: 'alerts on', channel: 'C1' });
    expect(line.fields).toEqual({ time: '09:00', level: 'loud', message: 'hi', component: 'x', fields: 1 });
    expect(Object.keys(line)).toEqual(['time', 'level', 'component', 'message', 'channel', 'fields']);
  });

  it('a line without collisions has no `fields`, and a `__proto__` field is just a field', () => {
    const { logger, lines } = capture();
    logger.info('plain', { poolId: '2001' });
    logger.info('odd', JSON.parse('{"__proto__":{"time":"x"}}') as Record<string, unknown>);
    expect(lines[0]).toEqual({ time: lines[0]?.time, level: 'info', message: 'plain', poolId: '2001' });
    expect(lines[1]?.time).toMatch(/^\d{4}-/);
    expect(Object.hasOwn(lines[1] ?? {}, '__proto__')).toBe(true);
  });

  it("Bolt's logger name is a `source`, so the component of the logger it is given stays", () => {
    const { logger, lines } = capture();
    const bolt = toBoltLogger(logger.child({ component: 'bolt' }), 'debug');
    bolt.setName('web-api:WebClient:0');
    bolt.warn('http request failed');
    expect(lines[0]).toMatchObject({
      component: 'bolt',
      source: 'web-api:WebClient:0',
      message: 'http request failed',
    });
  });
});
