/**
 * The licensing API's resources as License Desk uses them, after the client has parsed them at the
 * boundary: identifiers are always strings, date-times are ISO 8601 strings with an offset
 * (`2024-04-17T15:23:08+00:00`), validated. Spec: docs/licensing-api.md and docs/licensing-api-extras.md.
 */

export interface CourseRef {
  id: string;
  title: string;
}

export interface Pool extends PoolSummary {
  course: CourseRef;
}

export interface StudentRef {
  id: string;
  name: string;
  email: string;
}

export interface License {
  id: string;
  poolId: string;
  courseId: string;
  start: string;
  end: string;
  active: boolean;
  revokable: boolean;
  editable: boolean;
  student: StudentRef;
}

export interface Me {
  id: string;
  name: string;
  email: string;
  pools: number;
  licenses: number;
  untransferableLicenses: number;
  transferableLicenses: number;
  /** Transferable licenses may only be assigned to e-mail addresses in these domains. */
  allowedDomainsForTransferableLicenses: string[];
}

/** A pool as nested in a Course (no `course` inside). */
export interface PoolSummary {
  id: string;
  start: string;
  end: string;
  transferable: boolean;
  licenses: number;
  assignedLicenses: number;
  availableLicenses: number;
}

export interface Course {
  id: string;
  title: string;
  licenses: number;
  assignedLicenses: number;
  availableLicenses: number;
  pools: PoolSummary[];
}

export interface StudentCourse {
  id: string;
  title: string;
  poolId: string;
  licenseId: string;
  licenseActive: boolean;
  licenseRevokable: boolean;
  licenseEditable: boolean;
  start: string;
  end: string;
  /** Completion percentage, 0 to 100. */
  progress: number;
  /** When the course was completed, or null. */
  completed: string | null;
}

export interface Student {
  id: string;
  name: string;
  email: string;
  courses: StudentCourse[];
}

export interface AssignRequest {
  email: string;
  name?: string;
  /** YYYY-MM-DD; defaults to the pool end on the server. */
  endDate?: string;
  recycle?: boolean;
}

export interface ListQuery {
  page?: number;
  pageSize?: number;
  includeInactive?: boolean;
}
