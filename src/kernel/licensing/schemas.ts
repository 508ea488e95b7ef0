/**
 * zod schemas for every payload the licensing API returns (design.md section 3: parse at the boundary).
 * Identifiers arrive as JSON strings or numbers, even inside one response (licensing-api.md, Notes),
 * and leave as strings; date-times must be ISO 8601 with an offset; unknown extra fields are stripped,
 * not refused, so a server that adds fields does not break the client.
 */
import * as z from 'zod';
import type { Course, License, Me, Pool, PoolSummary, Student, StudentCourse } from '../domain/types.js';
import { InvalidResponseError } from './errors.js';

export const idSchema = z.union([z.string().min(1), z.number().int()]).transform((value) => String(value));
export const dateTimeSchema = z.iso.datetime({ offset: true });
const count = z.number().int().nonnegative();
/**
 * A seat count as the service reports it, negative included: one odd pool must not make the whole
 * list unreadable. Views clamp it and flag the pool (domain/pool-oddities.ts); nothing is computed
 * from a negative count as if it were true.
 */
const reportedCount = z.number().int();
/** A name the service may leave out (null, missing): read as '' and shown as missing, not refused. */
const optionalName = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

export const courseRefSchema = z.object({ id: idSchema, title: optionalName });

const poolFields = {
  id: idSchema,
  start: dateTimeSchema,
  end: dateTimeSchema,
  transferable: z.boolean(),
  licenses: reportedCount,
  assignedLicenses: reportedCount,
  availableLicenses: reportedCount,
};

export const poolSchema: z.ZodType<Pool> = z.object({ ...poolFields, course: courseRefSchema });
export const poolSummarySchema: z.ZodType<PoolSummary> = z.object(poolFields);

export const studentRefSchema = z.object({ id: idSchema, name: optionalName, email: z.string() });

export const licenseSchema: z.ZodType<License> = z.object({
  id: idSchema,
  poolId: idSchema,
  courseId: idSchema,
  start: dateTimeSchema,
  end: dateTimeSchema,
  active: z.boolean(),
  revokable: z.boolean(),
  editable: z.boolean(),
  student: studentRefSchema,
});

export const meSchema: z.ZodType<Me> = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  pools: count,
  licenses: count,
  untransferableLicenses: count,
  transferableLicenses: count,
  allowedDomainsForTransferableLicenses: z.array(z.string()),
});

export const courseSchema: z.ZodType<Course> = z.object({
  id: idSchema,
  title: optionalName,
  licenses: reportedCount,
  assignedLicenses: reportedCount,
  availableLicenses: reportedCount,
  pools: z.array(poolSummarySchema),
});

export const studentCourseSchema: z.ZodType<StudentCourse> = z.object({
  id: idSchema,
  title: z.string(),
  poolId: idSchema,
  licenseId: idSchema,
  licenseActive: z.boolean(),
  licenseRevokable: z.boolean(),
  licenseEditable: z.boolean(),
  start: dateTimeSchema,
  end: dateTimeSchema,
  progress: z.number().min(0).max(100),
  completed: dateTimeSchema.nullable(),
});

export const studentSchema: z.ZodType<Student> = z.object({
  id: idSchema,
  name: optionalName,
  email: z.string(),
  courses: z.array(studentCourseSchema),
});

export const poolListSchema = z.array(poolSchema);
export const licenseListSchema = z.array(licenseSchema);
export const courseListSchema = z.array(courseSchema);
export const studentListSchema = z.array(studentSchema);
/** DELETE answers 200 with a body the spec does not show: accept anything, including nothing. */
export const anySchema: z.ZodType<unknown> = z.unknown();

/** `[3].student.email`; `(root)` when the payload itself is wrong. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Validates a decoded payload. The error names the endpoint template and the first offending field,
 * with zod's message only: never the received value, which may be student data.
 */
export function parsePayload<T>(schema: z.ZodType<T>, payload: unknown, endpoint: string, outcomeUnknown = false): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = formatPath(issue?.path ?? []);
  throw new InvalidResponseError(issue?.message ?? 'schema mismatch', { endpoint, field, outcomeUnknown });
}
