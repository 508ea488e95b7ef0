import { describe, expect, it } from 'vitest';
import { searchPools } from '../../../src/kernel/domain/pool-search.js';

const pool = (id: string, title: string) => ({ id, course: { id: `c${id}`, title } });
const POOLS = [
  pool('2001', 'Mastering DAX'),
  pool('2002', 'PostgreSQL for analysts'),
  pool('2003', 'SQL Server Basics'),
  pool('2004', 'Écriture SQL'),
  pool('1203', 'Power Query'),
];

describe('searchPools', () => {
  it('every word must match; case and accents are ignored; word starts rank before inner matches', () => {
    expect(searchPools(POOLS, 'sql', 100).map((p) => p.id)).toEqual(['2003', '2004', '2002']);
    expect(searchPools(POOLS, 'ECRITURE sql', 100).map((p) => p.id)).toEqual(['2004']);
    expect(searchPools(POOLS, 'dax power', 100)).toEqual([]);
  });
  it('the pool whose id is typed comes first; other ids containing it follow', () => {
    expect(searchPools(POOLS, '2003', 100).map((p) => p.id)).toEqual(['2003']);
    expect(searchPools(POOLS, '203', 100).map((p) => p.id)).toEqual(['1203']);
    expect(searchPools(POOLS, 'pool 200', 100).map((p) => p.id)).toEqual(['2001', '2002', '2003', '2004']);
  });
  it('nothing typed: the pools in their order, at most the limit', () => {
    expect(searchPools(POOLS, '  ', 2).map((p) => p.id)).toEqual(['2001', '2002']);
  });
});
