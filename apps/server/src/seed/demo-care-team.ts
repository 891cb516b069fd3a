import type { SpecialtyCode } from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { careRequests, doctorLicenses, doctorProfiles, patientDoctors, users } from '../db/schema.js';
import type { DemoTenantData } from './demo.js';
import { seedDemoReviews } from './demo-reviews.js';

const DAY = 24 * 60 * 60 * 1000;
const dateIn = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

interface DemoDoctor {
  firstName: string;
  lastName: string;
  email: string;
  centerIndex: number;
  specialties: SpecialtyCode[];
  degreeCode: number;
  years: number;
  kind: 'FAMILY_DOCTOR' | 'SPECIALIST';
  /** Days from today to the license's last day (negative: expired). */
  licenseDays: number;
}

/** Extra doctors across the centers, with varied specialties; Quang Vo's only license has expired. */
const EXTRA_DOCTORS: DemoDoctor[] = [
  {
    firstName: 'Bao',
    lastName: 'Tran',
    email: 'bao.tran@demo.example',
    centerIndex: 0,
    specialties: ['CARDIOLOGY', 'INTERVENTIONAL_CARDIOLOGY', 'HYPERTENSION'],
    degreeCode: 3,
    years: 18,
    kind: 'SPECIALIST',
    licenseDays: 700,
  },
  {
    firstName: 'Cuc',
    lastName: 'Le',
    email: 'cuc.le@demo.example',
    centerIndex: 0,
    specialties: ['ENDOCRINOLOGY', 'DIABETOLOGY'],
    degreeCode: 5,
    years: 11,
    kind: 'SPECIALIST',
    licenseDays: 400,
  },
  {
    firstName: 'Quang',
    lastName: 'Vo',
    email: 'quang.vo@demo.example',
    centerIndex: 0,
    specialties: ['PULMONOLOGY', 'SLEEP_MEDICINE'],
    degreeCode: 4,
    years: 7,
    kind: 'SPECIALIST',
    licenseDays: -20,
  },
  {
    firstName: 'Thu',
    lastName: 'Pham',
    email: 'thu.pham@demo.example',
    centerIndex: 1,
    specialties: ['FAMILY_MEDICINE', 'GERIATRICS'],
    degreeCode: 1,
    years: 9,
    kind: 'FAMILY_DOCTOR',
    licenseDays: 300,
  },
  {
    firstName: 'Vinh',
    lastName: 'Hoang',
    email: 'vinh.hoang@demo.example',
    centerIndex: 2,
    specialties: ['NEUROLOGY', 'PHYSICAL_REHABILITATION', 'PAIN_MEDICINE', 'SPORTS_MEDICINE'],
    degreeCode: 7,
    years: 25,
    kind: 'SPECIALIST',
    licenseDays: 900,
  },
];

/**
 * Demo doctor profiles, care teams and requests: the demo doctor (family doctor of ten patients
 * of the main center) and five more doctors across the centers, one with an expired license; a
 * few waiting requests in both directions.
 */
export async function seedDemoCareTeam(tx: TenantTransaction, data: DemoTenantData): Promise<void> {
  const { tenantId, staff, centers, patients } = data;
  const demoDoctorId = staff.DOCTOR;
  const mainCenter = centers[0];
  if (demoDoctorId === undefined || mainCenter === undefined) return;
  const passwordHash = await passwordHashOf(tx, demoDoctorId);

  await tx.insert(doctorProfiles).values({
    tenantId,
    doctorId: demoDoctorId,
    specialties: ['FAMILY_MEDICINE', 'INTERNAL_MEDICINE', 'CARDIOLOGY'],
    degreeCode: 2,
    placeOfEducation: 'University of Medicine and Pharmacy, Ho Chi Minh City',
    yearsOfExperience: 12,
    examinationCost: 300000,
    officeAddress: mainCenter.name,
    officeEmail: 'doctor@demo.example',
    officePhone: '02838123456',
    introduction: 'Family doctor with a focus on heart health and long-term care of older patients.',
    kind: 'FAMILY_DOCTOR',
  });
  await tx.insert(doctorLicenses).values({
    tenantId,
    id: uuidv7(),
    doctorId: demoDoctorId,
    name: 'Practising certificate 0012345/HCM-CCHN',
    expiresOn: dateIn(540),
  });

  const extraIds: string[] = [];
  for (const doctor of EXTRA_DOCTORS) {
    const id = uuidv7();
    extraIds.push(id);
    const center = centers[doctor.centerIndex] ?? mainCenter;
    await tx.insert(users).values({
      tenantId,
      id,
      email: doctor.email,
      firstName: doctor.firstName,
      lastName: doctor.lastName,
      role: 'DOCTOR',
      passwordHash,
      healthCenterId: center.id,
    });
    await tx.insert(doctorProfiles).values({
      tenantId,
      doctorId: id,
      specialties: doctor.specialties,
      degreeCode: doctor.degreeCode,
      placeOfEducation: 'Hanoi Medical University',
      yearsOfExperience: doctor.years,
      examinationCost: 200000 + doctor.years * 10000,
      officeAddress: center.name,
      kind: doctor.kind,
    });
    await tx.insert(doctorLicenses).values({
      tenantId,
      id: uuidv7(),
      doctorId: id,
      name: `Practising certificate ${doctor.lastName.toUpperCase()}-${String(doctor.years)}`,
      expiresOn: dateIn(doctor.licenseDays),
    });
  }

  // The demo doctor is the family doctor of ten patients of the main center; the cardiologist a
  // specialist of the first three.
  const mainPatients = patients.filter((patient) => patient.healthCenterId === mainCenter.id);
  const cared = mainPatients.slice(0, 10);
  if (cared.length > 0) {
    await tx.insert(patientDoctors).values(
      cared.map((patient) => ({
        tenantId,
        patientId: patient.id,
        doctorId: demoDoctorId,
        relation: 'FAMILY',
        assignedBy: staff.MHSC_ADMIN ?? null,
      })),
    );
  }
  const cardiologist = extraIds[0];
  if (cardiologist !== undefined) {
    await tx.insert(patientDoctors).values(
      cared.slice(0, 3).map((patient) => ({
        tenantId,
        patientId: patient.id,
        doctorId: cardiologist,
        relation: 'SPECIALIST',
        assignedBy: staff.MHSC_ADMIN ?? null,
      })),
    );
  }

  // Waiting requests: patients' requests to the demo doctor (filed by the center admin for them) and
  // the demo doctor's requests to patients, so both boxes have something to decide.
  const uncared = mainPatients.slice(10);
  const requester = staff.MHSC_ADMIN;
  const rows: (typeof careRequests.$inferInsert)[] = [];
  uncared.slice(0, 2).forEach((patient, index) => {
    if (requester === undefined) return;
    rows.push({
      tenantId,
      id: uuidv7(),
      kind: 'PATIENT_REQUEST',
      requesterId: requester,
      recipientId: demoDoctorId,
      patientId: patient.id,
      doctorId: demoDoctorId,
      relation: index === 0 ? 'SPECIALIST' : 'FAMILY',
      message: 'Please follow up on my blood pressure readings.',
    });
  });
  uncared.slice(2, 4).forEach((patient) => {
    rows.push({
      tenantId,
      id: uuidv7(),
      kind: 'DOCTOR_REQUEST',
      requesterId: demoDoctorId,
      recipientId: patient.userId,
      patientId: patient.id,
      doctorId: demoDoctorId,
      relation: 'SPECIALIST',
      message: 'I would like to monitor your heart rate alerts.',
    });
  });
  const endocrinologist = extraIds[1];
  const firstCared = cared[0];
  if (endocrinologist !== undefined && firstCared !== undefined) {
    rows.push({
      tenantId,
      id: uuidv7(),
      kind: 'DOCTOR_REQUEST',
      requesterId: endocrinologist,
      recipientId: firstCared.userId,
      patientId: firstCared.id,
      doctorId: endocrinologist,
      relation: 'SPECIALIST',
      message: 'Your glucose readings need a specialist.',
    });
  }
  if (rows.length > 0) await tx.insert(careRequests).values(rows);
  // The doctors' ratings come from their patients' reviews (no static figures).
  await seedDemoReviews(tx, data, { family: demoDoctorId, cardiologist });
}

async function passwordHashOf(tx: TenantTransaction, userId: string): Promise<string | null> {
  const rows = await tx
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0]?.passwordHash ?? null;
}
