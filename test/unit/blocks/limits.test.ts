import { describe, expect, it } from 'vitest';
import { assertWithinLimits, checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const btn = (action_id: string, text = 'Go', value?: string) => ({
  type: 'button',
  action_id,
  text: { type: 'plain_text', text },
  ...(value === undefined ? {} : { value }),
});

describe('checkBlockKitLimits', () => {
  it('accepts a small valid message', () => {
    expect(
      checkBlockKitLimits({ text: 'hi', blocks: [section('hi'), { type: 'actions', elements: [btn('a')] }] }),
    ).toEqual([]);
  });

  it.each([
    ['no fallback text', { blocks: [section('x')] }, 'no text fallback'],
    ['51 blocks', { text: 't', blocks: Array.from({ length: 51 }, () => section('x')) }, '51 blocks'],
    ['section text over 3000', { text: 't', blocks: [section('x'.repeat(3001))] }, 'limit 3000'],
    ['empty section text', { text: 't', blocks: [section('')] }, 'empty text'],
    [
      'header over 150',
      { text: 't', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }] },
      'limit 150',
    ],
    ['mrkdwn header', { text: 't', blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'h' } }] }, 'not allowed'],
    [
      '11 context elements',
      {
        text: 't',
        blocks: [{ type: 'context', elements: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'c' })) }],
      },
      '11 elements',
    ],
    [
      '26 buttons',
      { text: 't', blocks: [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => btn(`b${i}`)) }] },
      '26 elements',
    ],
    [
      'button text over 75',
      { text: 't', blocks: [{ type: 'actions', elements: [btn('a', 'x'.repeat(76))] }] },
      'limit 75',
    ],
    [
      'button value over 2000',
      { text: 't', blocks: [{ type: 'actions', elements: [btn('a', 'Go', 'v'.repeat(2001))] }] },
      'limit 2000',
    ],
    [
      'repeated action ids in one block',
      { text: 't', blocks: [{ type: 'actions', elements: [btn('a'), btn('a')] }] },
      'action_ids repeat',
    ],
    [
      'repeated block ids',
      {
        text: 't',
        blocks: [
          { ...section('a'), block_id: 'x' },
          { ...section('b'), block_id: 'x' },
        ],
      },
      'block_ids repeat',
    ],
    [
      '11 fields',
      {
        text: 't',
        blocks: [{ type: 'section', fields: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'f' })) }],
      },
      '11 fields',
    ],
    [
      'too much text in total',
      { text: 't', blocks: Array.from({ length: 5 }, () => section('x'.repeat(2900))) },
      '≤ 12000',
    ],
    ['an unknown block', { text: 't', blocks: [{ type: 'video' }] }, 'unexpected block type'],
  ])('reports %s', (_name, message, fragment) => {
    expect(checkBlockKitLimits(message).join('\n')).toContain(fragment);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkBlockKitLimits({ text: 't', blocks: [section('😀'.repeat(3000))] })).toEqual([]);
  });

  it('assertWithinLimits throws with every problem listed', () => {
    expect(() => assertWithinLimits({ blocks: [section('')] })).toThrow(/no text fallback[\s\S]*empty text/);
  });
});
