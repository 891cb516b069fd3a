-- Doctor schedules (spec §2 doctor schedule and approval; §3 Doctor schedule request; §4 states;
-- §5 conflicts refused; §6 doctors request, health-center admins approve): the working hours a
-- doctor offers, a single day or a weekly pattern between two dates, in the wall-clock time of
-- time_zone (the doctor's zone when it was requested). health_center_id is the doctor's center then:
-- the center's admins decide on it and its working calendar shows it. The transitions are contracts
-- SCHEDULE_TRANSITIONS; a deleted schedule keeps its row (status DELETED) so decisions stay answerable.
CREATE TABLE doctor_schedules (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  health_center_id uuid,
  kind text NOT NULL CHECK (kind IN ('SINGLE', 'WEEKLY')),
  start_date date NOT NULL,
  end_date date NOT NULL CHECK (end_date >= start_date AND end_date <= start_date + 366),
  -- ISO days of the week (1 Monday .. 7 Sunday); a SINGLE schedule's is its date's.
  weekdays smallint[] NOT NULL CHECK (cardinality(weekdays) BETWEEN 1 AND 7 AND weekdays <@ ARRAY[1, 2, 3, 4, 5, 6, 7]::smallint[]),
  start_time time NOT NULL,
  end_time time NOT NULL CHECK (end_time > start_time),
  slot_minutes smallint NOT NULL CHECK (slot_minutes IN (15, 20, 30, 45, 60)),
  time_zone text NOT NULL,
  note text CHECK (length(note) <= 500),
  status text NOT NULL CHECK (status IN ('NEW', 'APPROVED', 'REJECTED', 'DELETION_REQUESTED', 'DELETED')),
  requested_at timestamptz NOT NULL,
  decided_by uuid,
  decided_at timestamptz,
  reason text CHECK (length(reason) <= 500),
  deletion_requested_at timestamptz,
  deletion_reason text CHECK (length(deletion_reason) <= 500),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, doctor_id) REFERENCES users (tenant_id, id),
  CHECK (kind = 'WEEKLY' OR end_date = start_date)
);
CREATE INDEX doctor_schedules_by_doctor ON doctor_schedules (tenant_id, doctor_id, start_date) WHERE status <> 'DELETED';
CREATE INDEX doctor_schedules_by_status ON doctor_schedules (tenant_id, status, requested_at DESC);

-- Tenant isolation; staff see the schedules of the centers they see (a doctor without a center is
-- seen by those who see the whole tenant); a patient session sees approved schedules only (the free
-- slots it books from), and writes none.
ALTER TABLE doctor_schedules ENABLE ROW LEVEL SECURITY;
ALTER TABLE doctor_schedules FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON doctor_schedules USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
CREATE POLICY center_visibility ON doctor_schedules AS RESTRICTIVE
  USING (CASE WHEN current_setting('app.subject', true) = 'patient'
              THEN status = 'APPROVED'
              ELSE app_center_visible(health_center_id) END);
CREATE POLICY staff_write_insert ON doctor_schedules AS RESTRICTIVE FOR INSERT
  WITH CHECK (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_write_update ON doctor_schedules AS RESTRICTIVE FOR UPDATE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_write_delete ON doctor_schedules AS RESTRICTIVE FOR DELETE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
GRANT SELECT, INSERT, UPDATE, DELETE ON doctor_schedules TO rpm_app;
