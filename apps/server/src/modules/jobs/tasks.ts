/**
 * Every module that defines jobs (defineTask / definePeriodicTask) is imported here, so the
 * runner knows all tasks before it starts. Add one line per module.
 */
import '../alerts/jobs.js';
import '../doctors/license-reminder-job.js';
import '../vitals/maintenance-job.js';
import '../vitals/storage-job.js';
import '../vitals/local-rollups-job.js';
import '../care-plan/intake-job.js';
import '../schedules/appointment-reminders.js';
import '../announcements/publish-job.js';
import '../packages/jobs.js';
import '../orders/jobs.js';
import '../patients/counts-job.js';
import '../patients/search-backlog.js';

export {};
