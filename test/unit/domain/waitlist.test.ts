import { describe, expect, it } from 'vitest';
import {
  addEntry,
  entriesOf,
  entryOf,
  moveEntry,
  parseLines,
  removeEntry,
  type WaitlistLines,
} from '../../../src/requests/domain/waitlist.js';

const at = new Date('2026-03-10T12:00:00Z');
const req = (id: string, poolId = '2003') => entryOf({ id, poolId, requester: `U0${id}`, decidedBy: 'U0MGR00001' }, at);
const order = (lines: WaitlistLines, poolId?: string) =>
  entriesOf(lines, poolId).map((e) => `${e.place}:${e.requestId}`);

describe('waitlist lines', () => {
  it('first in, first out per pool, with places counted per pool', () => {
    const lines: WaitlistLines = {};
    expect(addEntry(lines, req('R1'))).toBe(1);
    expect(addEntry(lines, req('R2'))).toBe(2);
    expect(addEntry(lines, req('R3', '2001'))).toBe(1);
    expect(addEntry(lines, req('R4'))).toBe(3);
    expect(order(lines, '2003')).toEqual(['1:R1', '2:R2', '3:R4']);
    expect(order(lines)).toEqual(['1:R3', '1:R1', '2:R2', '3:R4']);
  });

  it('a request added twice keeps its place; one moved to another pool leaves the first line', () => {
    const lines: WaitlistLines = {};
    addEntry(lines, req('R1'));
    addEntry(lines, req('R2'));
    expect(addEntry(lines, req('R1'))).toBe(1);
    expect(addEntry(lines, req('R1', '2001'))).toBe(1);
    expect(order(lines)).toEqual(['1:R1', '1:R2']);
    expect(lines['2003']?.map((e) => e.requestId)).toEqual(['R2']);
  });

  it('reorders within the line, clamped to its ends, and removes', () => {
    const lines: WaitlistLines = {};
    for (const id of ['R1', 'R2', 'R3']) addEntry(lines, req(id));
    expect(moveEntry(lines, 'R3', 0)).toBe(1);
    expect(order(lines)).toEqual(['1:R3', '2:R1', '3:R2']);
    expect(moveEntry(lines, 'R3', 99)).toBe(3);
    expect(moveEntry(lines, 'R1', -5)).toBe(1);
    expect(order(lines)).toEqual(['1:R1', '2:R2', '3:R3']);
    expect(moveEntry(lines, 'nobody', 0)).toBeUndefined();
    expect(removeEntry(lines, 'R2')?.requestId).toBe('R2');
    expect(removeEntry(lines, 'R2')).toBeUndefined();
    expect(order(lines)).toEqual(['1:R1', '2:R3']);
    removeEntry(lines, 'R1');
    removeEntry(lines, 'R3');
    expect(lines).toEqual({});
  });

  it('reads back what it wrote and drops entries that are not, rather than failing', () => {
    const lines: WaitlistLines = {};
    addEntry(lines, req('R1'));
    expect(parseLines(JSON.parse(JSON.stringify(lines)))).toEqual(lines);
    expect(parseLines({ '2003': [{ requestId: 'R9' }, lines['2003']?.[0]] })).toEqual(lines);
    expect(parseLines([])).toBeUndefined();
    expect(parseLines({ '2003': 'x' })).toBeUndefined();
  });
});
