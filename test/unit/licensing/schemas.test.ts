import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../../src/kernel/licensing/errors.js';
import {
  courseSchema,
  formatPath,
  licenseListSchema,
  licenseSchema,
  meSchema,
  parsePayload,
  poolSchema,
  studentSchema,
} from '../../../src/kernel/licensing/schemas.js';

const license = (over: Record<string, unknown> = {}) => ({
  id: 11,
  poolId: '3',
  courseId: 'c-1',
  start: '2024-04-17T15:23:08+00:00',
  end: '2025-04-17T15:23:08Z',
  active: true,
  revokable: true,
  editable: false,
  student: { id: 42, name: 'Ada', email: 'ada@example.com' },
  ...over,
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('schemas', () => {
  it('turns number and string ids into strings, nested ones too', () => {
    const parsed = parsePayload(licenseSchema, license(), 'GET /v1/license/{id}');
    expect(parsed.id).toBe('11');
    expect(parsed.poolId).toBe('3');
    expect(parsed.student.id).toBe('42');
  });

  it('tolerates unknown extra fields and drops them', () => {
    const parsed = parsePayload(licenseSchema, license({ surprise: 'x' }), 'GET /v1/license/{id}');
    expect(parsed).not.toHaveProperty('surprise');
    expect(parsed.active).toBe(true);
  });

  it('accepts offsets and Z, refuses date-times without an offset and plain nonsense', () => {
    expect(() => parsePayload(licenseSchema, license({ end: '2025-04-17T15:23:08-05:30' }), 'x')).not.toThrow();
    for (const bad of ['2025-04-17T15:23:08', '2025-04-17', 'tomorrow', 20250417]) {
      const error = catchError(() => parsePayload(licenseSchema, license({ end: bad }), 'GET /v1/license/{id}'));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as InvalidResponseError).field).toBe('end');
    }
  });

  it('names the endpoint template and the field path of a break deep in a list', () => {
    const payload = [license(), license(), license(), license({ student: { id: 1, name: 'B' } })];
    const error = catchError(() => parsePayload(licenseListSchema, payload, 'GET /v1/pool/{id}/licenses'));
    expect(error).toBeInstanceOf(InvalidResponseError);
    const invalid = error as InvalidResponseError;
    expect(invalid.field).toBe('[3].student.email');
    expect(invalid.endpoint).toBe('GET /v1/pool/{id}/licenses');
    expect(invalid.message).toContain('GET /v1/pool/{id}/licenses');
    expect(invalid.message).toContain('[3].student.email');
    expect(invalid.outcomeUnknown).toBe(false);
  });

  it('never quotes the received value in the error', () => {
    const error = catchError(() =>
      parsePayload(licenseSchema, license({ student: { id: 1, name: 'B', email: 12345678 } }), 'x'),
    );
    expect(String((error as Error).message)).not.toContain('12345678');
  });

  it('refuses empty and fractional ids; accepts odd pools (negative count, no title) for the views to flag', () => {
    expect(() => parsePayload(licenseSchema, license({ id: '' }), 'x')).toThrow(InvalidResponseError);
    expect(() => parsePayload(licenseSchema, license({ id: 1.5 }), 'x')).toThrow(InvalidResponseError);
    const pool = {
      id: 1,
      course: { id: 2, title: null },
      start: '2024-01-01T00:00:00+00:00',
      end: '2025-01-01T00:00:00+00:00',
      transferable: true,
      licenses: 10,
      assignedLicenses: 3,
      availableLicenses: -1,
    };
    const odd = parsePayload(poolSchema, pool, 'GET /v1/pool/{id}');
    expect(odd).toMatchObject({ availableLicenses: -1, course: { id: '2', title: '' } });
    const error = catchError(() => parsePayload(poolSchema, { ...pool, licenses: 2.5 }, 'GET /v1/pool/{id}'));
    expect((error as InvalidResponseError).field).toBe('licenses');
    const nameless = license({ student: { id: 5, email: 'a@contoso.com' } });
    expect(parsePayload(licenseSchema, nameless, 'x').student.name).toBe('');
  });

  it('parses me, a course with nested pool ids as numbers, and a student with progress', () => {
    const me = parsePayload(
      meSchema,
      {
        id: 7,
        name: 'Org',
        email: 'm@example.com',
        pools: 2,
        licenses: 20,
        untransferableLicenses: 5,
        transferableLicenses: 15,
        allowedDomainsForTransferableLicenses: ['example.com'],
      },
      'GET /v1/me',
    );
    expect(me.id).toBe('7');
    const course = parsePayload(
      courseSchema,
      {
        id: 'dax',
        title: 'DAX',
        licenses: 10,
        assignedLicenses: 1,
        availableLicenses: 9,
        pools: [
          {
            id: 5,
            start: '2024-01-01T00:00:00+00:00',
            end: '2025-01-01T00:00:00+00:00',
            transferable: false,
            licenses: 10,
            assignedLicenses: 1,
            availableLicenses: 9,
          },
        ],
      },
      'GET /v1/course/{id}',
    );
    expect(course.pools[0]?.id).toBe('5');
    const student = parsePayload(
      studentSchema,
      {
        id: 1,
        name: 'Ada',
        email: 'ada@example.com',
        courses: [
          {
            id: 2,
            title: 'DAX',
            poolId: 5,
            licenseId: 9,
            licenseActive: true,
            licenseRevokable: true,
            licenseEditable: true,
            start: '2024-01-01T00:00:00+00:00',
            end: '2025-01-01T00:00:00+00:00',
            progress: 40,
            completed: null,
          },
        ],
      },
      'GET /v1/student',
    );
    expect(student.courses[0]?.licenseId).toBe('9');
    expect(student.courses[0]?.completed).toBeNull();
  });

  it('formats paths', () => {
    expect(formatPath([])).toBe('(root)');
    expect(formatPath([0])).toBe('[0]');
    expect(formatPath(['pools', 2, 'id'])).toBe('pools[2].id');
  });
});
