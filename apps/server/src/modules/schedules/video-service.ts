import {
  APPOINTMENT_OPEN_STATUSES,
  VIDEO_ROOM_OPENS_MINUTES,
  type AppointmentVideo,
  type IceServer,
} from '@rpm/contracts';
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordPatientReads } from '../audit/reads.js';
import { fullName } from '../care-plan/store.js';
import type { ScheduleEnvironment } from './service.js';

/**
 * The video room of an online appointment (spec §2 video meeting room): its two parties are the
 * appointment's doctor and the patient's account (or, for a sub-user, the account holding it);
 * nobody else joins, whatever their permissions. The room is open from VIDEO_ROOM_OPENS_MINUTES
 * before the start to the end of the slot, while the appointment is open (not completed or
 * cancelled).
 */

interface PartyRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  doctor_id: string;
  doctor_name: string;
  patient_name: string;
  patient_account: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  status: string;
  place: string;
}

export interface CallParty {
  appointmentId: string;
  patientId: string;
  role: 'DOCTOR' | 'PATIENT';
  /** The other party's account: where the caller's signals go. */
  peerUserId: string;
  peerName: string;
  opensAt: Date;
  closesAt: Date;
  isOnline: boolean;
  isOpen: boolean;
}

const OPEN: readonly string[] = APPOINTMENT_OPEN_STATUSES;

/** The caller's side of the appointment's call; appointment.notFound when it cannot see it, video.notAParty when it is not a party. */
async function partyIn(tx: TenantTransaction, auth: AuthContext, appointmentId: string, now: Date): Promise<CallParty> {
  const result = await tx.execute<PartyRow>(sql`
    SELECT a.id, a.patient_id, a.doctor_id, ${fullName('doctor')} AS doctor_name, ${fullName('patient')} AS patient_name,
           coalesce(patient.user_id, patient.holder_user_id) AS patient_account, a.starts_at, a.ends_at, a.status, a.place
      FROM appointments a
      JOIN patients patient ON patient.tenant_id = a.tenant_id AND patient.id = a.patient_id
      JOIN users doctor ON doctor.tenant_id = a.tenant_id AND doctor.id = a.doctor_id
     WHERE a.id = ${appointmentId}::uuid`);
  const row = result.rows[0];
  if (row === undefined) throw new AppError('appointment.notFound');
  const isDoctor = row.doctor_id === auth.userId;
  const isPatient = row.patient_account !== null && row.patient_account === auth.userId;
  if (!isDoctor && !isPatient) throw new AppError('video.notAParty');
  const opensAt = new Date(new Date(row.starts_at).getTime() - VIDEO_ROOM_OPENS_MINUTES * 60_000);
  const closesAt = new Date(row.ends_at);
  const isOnline = row.place === 'ONLINE';
  return {
    appointmentId: row.id,
    patientId: row.patient_id,
    role: isDoctor ? 'DOCTOR' : 'PATIENT',
    peerUserId: isDoctor ? (row.patient_account ?? '') : row.doctor_id,
    peerName: isDoctor ? row.patient_name : row.doctor_name,
    opensAt,
    closesAt,
    isOnline,
    isOpen:
      isOnline &&
      OPEN.includes(row.status) &&
      now.getTime() >= opensAt.getTime() &&
      now.getTime() < closesAt.getTime(),
  };
}

/**
 * Whether the caller may send this call message now: a party, in an online appointment, while the
 * room is open (a `leave` is always let through to the peer). Throws the refusal's error.
 */
export async function authoriseCallMessage(
  database: Database,
  clock: Clock,
  auth: AuthContext,
  appointmentId: string,
  kind: string,
): Promise<CallParty> {
  const party = await withCaller(database, auth, (tx) => partyIn(tx, auth, appointmentId, clock.now()));
  if (kind === 'leave') return party;
  if (!party.isOnline) throw new AppError('video.notOnline');
  if (!party.isOpen) throw new AppError('video.roomClosed');
  return party;
}

/** A TURN credential valid for a day (coturn use-auth-secret: username "expiry:user", HMAC-SHA1 password). */
export function iceServersFor(ice: Config['ice'], userId: string, now: Date): IceServer[] {
  const servers: IceServer[] = [];
  if (ice.stunUrls.length > 0) servers.push({ urls: ice.stunUrls });
  if (ice.turnUrls.length > 0 && ice.turnSecret !== undefined) {
    const username = `${String(Math.floor(now.getTime() / 1000) + 24 * 60 * 60)}:${userId}`;
    const credential = createHmac('sha1', ice.turnSecret).update(username).digest('base64');
    servers.push({ urls: ice.turnUrls, username, credential });
  }
  return servers;
}

/** GET …/appointments/:id/video: what the caller needs to join the room; a read of the appointment, audited. */
export function videoRoom(
  environment: ScheduleEnvironment,
  ice: Config['ice'],
  appointmentId: string,
): Promise<AppointmentVideo> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const now = environment.clock.now();
    const party = await partyIn(tx, auth, appointmentId, now);
    await recordPatientReads(
      tx,
      auth.tenantId,
      environment.audit,
      {
        action: 'APPOINTMENT_VIEWED',
        patientIds: [party.patientId],
        targetId: party.patientId,
        details: { appointmentId, video: true },
      },
      now,
    );
    return {
      appointmentId,
      role: party.role,
      peerName: party.peerName,
      patientId: party.patientId,
      opensAt: party.opensAt.toISOString(),
      closesAt: party.closesAt.toISOString(),
      isOpen: party.isOpen,
      iceServers: iceServersFor(ice, auth.userId, now),
    };
  });
}
