/**
 * A student and their licenses as `find` shows them. From GET /v1/student it carries progress; from
 * the fallback scan of the licenses it cannot (progress and completion are then null).
 */
export interface StudentReportRow {
  courseId: string;
  title: string;
  poolId: string;
  licenseId: string;
  active: boolean;
  start: string;
  end: string;
  progress: number | null;
  completed: string | null;
}

export interface StudentReport {
  id: string;
  name: string;
  email: string;
  rows: StudentReportRow[];
  /** 'lookup': one GET /v1/student; 'scan': the endpoint is missing here, so the licenses were scanned. */
  source: 'lookup' | 'scan';
}
