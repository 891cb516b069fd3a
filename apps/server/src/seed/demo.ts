import { PLATFORM_ROLES, TENANT_ROLES, type RoleCode } from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database, TenantTransaction } from '../db/database.js';
import {
  centerAdmins,
  devices,
  doctorAssistants,
  healthCenters,
  patientCodeSequences,
  patients,
  platformStaffTenants,
  scopeAdmins,
  scopes,
  tenants,
  tenantSettings,
  users,
} from '../db/schema.js';
import { findPlatformTenant } from '../modules/tenants/store.js';
import { seedDemoCarePlan } from './demo-care-plan.js';
import { seedDemoSchedules } from './demo-schedules.js';
import { seedDemoNotifications } from './demo-notifications.js';
import { seedDemoFeedback } from './demo-feedback.js';
import { seedDemoCareTeam } from './demo-care-team.js';
import { seedDemoAlerts } from './demo-alerts.js';
import { seedDemoDevices } from './demo-devices.js';
import { seedDemoFollowers } from './demo-followers.js';
import { seedDemoPackages } from './demo-packages.js';
import { demoPatientDetails } from './demo-patients.js';
import { hashPassword } from '../modules/auth/passwords.js';

export const DEMO_TENANT_CODE = 'demo';
/** Meets the default password rule: 8-32 characters, lower, upper, digit, special. */
export const DEMO_PASSWORD = 'Demo@2026';
/** The account of the simulated duty operator (tools/simulator/demo-fleet.ts DEMO_DUTY_OPERATOR). */
export const DEMO_DUTY_OPERATOR_EMAIL = 'duty-operator@demo.example';

export interface DemoLogin {
  role: RoleCode;
  username: string;
}

const demoEmail = (role: RoleCode) => `${role.toLowerCase().replaceAll('_', '-')}@demo.example`;

/** Every role gets one login; the doctor's address is the short one people type first. */
export function demoLogins(): DemoLogin[] {
  return [...PLATFORM_ROLES, ...TENANT_ROLES].map((role) => ({ role, username: demoEmail(role) }));
}

const FIRST_NAMES = [
  'An',
  'Binh',
  'Chi',
  'Dung',
  'Giang',
  'Hanh',
  'Khanh',
  'Lan',
  'Minh',
  'Nga',
  'Phuc',
  'Quang',
  'Son',
  'Thao',
  'Tuan',
  'Uyen',
  'Van',
  'Xuan',
];
const LAST_NAMES = ['Nguyen', 'Tran', 'Le', 'Pham', 'Hoang', 'Vu', 'Vo', 'Dang', 'Bui', 'Do'];
const STAFF_NAMES: Partial<Record<RoleCode, [string, string]>> = {
  DOCTOR: ['Linh', 'Nguyen'],
  DOCTOR_ASSISTANT: ['Mai', 'Tran'],
  OPERATOR: ['Hoa', 'Le'],
};
const MODELS = ['V19', 'GT2', 'GT5', 'J2025E', 'J2025B'] as const;
const STATUSES = ['NORMAL', 'NORMAL', 'NORMAL', 'NORMAL', 'AT_RISK', 'AT_RISK', 'HIGH_RISK', 'SOS'] as const;

/**
 * Creates the demo tenant ("demo"): a scope hierarchy of three levels, three health centers,
 * one login per role, patients with mixed statuses and their watches, the packages (Zero and
 * Basic) with the watch wearers' subscriptions; and the platform staff
 * (users of the platform tenant) who may act in it.
 * Does nothing when the tenant exists, so every start may call it.
 */
export async function seedDemo(database: Database): Promise<{ created: boolean; logins: DemoLogin[] }> {
  const logins = demoLogins();
  const existing = await database.system
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.code, DEMO_TENANT_CODE));
  if (existing.length > 0) return { created: false, logins };

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const tenantId = uuidv7();
  await database.system.transaction(async (tx) => {
    await tx.insert(tenants).values({
      id: tenantId,
      code: DEMO_TENANT_CODE,
      name: 'Demo Health',
      officialName: 'Demo Health Network',
    });
    await tx.insert(tenantSettings).values([
      { tenantId, key: 'ORGANIZATION_NAME', value: 'Demo Health Network' },
      { tenantId, key: 'COUNTRY', value: 'Vietnam' },
      // The demo's simulated watches replay the last 24 hours at 60× (tools/simulator/demo-fleet.ts):
      // a 25-hour late-data horizon lets that replayed day be judged like current data, so the
      // dashboard comes alive; the six days of history before it stay late and raise nothing.
      { tenantId, key: 'LATE_DATA_HORIZON_MINUTES', value: '1500' },
    ]);
  });
  const platform = await findPlatformTenant(database.system);
  const staffIds = await database.withTenant(platform.id, async (tx) => {
    const ids: Partial<Record<RoleCode, string>> = {};
    for (const role of PLATFORM_ROLES) {
      const [firstName, lastName] =
        role === 'ROOT'
          ? ['Root', 'Account']
          : role === 'SUPER_ADMIN'
            ? ['Sophia', 'Admin']
            : ['Sam', 'Systems'];
      const [created] = await tx
        .insert(users)
        .values({
          tenantId: platform.id,
          id: uuidv7(),
          email: demoEmail(role),
          firstName,
          lastName,
          role,
          passwordHash,
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (created) ids[role] = created.id;
    }
    return ids;
  });
  // The system admin serves the demo tenant (a system admin is assigned to tenants: spec §6).
  if (staffIds.SYSTEM_ADMIN !== undefined) {
    await database.system
      .insert(platformStaffTenants)
      .values({ userId: staffIds.SYSTEM_ADMIN, tenantId })
      .onConflictDoNothing();
  }
  await database.withTenant(tenantId, (tx) => seedTenantData(tx, tenantId, passwordHash));
  return { created: true, logins };
}

async function seedTenantData(tx: TenantTransaction, tenantId: string, passwordHash: string) {
  const country = { tenantId, id: uuidv7(), name: 'Vietnam', type: 'COUNTRY', level: 1 };
  const south = {
    tenantId,
    id: uuidv7(),
    name: 'Ho Chi Minh City',
    type: 'CITY',
    level: 2,
    parentId: country.id,
  };
  const north = { tenantId, id: uuidv7(), name: 'Ha Noi', type: 'CITY', level: 2, parentId: country.id };
  const district1 = {
    tenantId,
    id: uuidv7(),
    name: 'District 1',
    type: 'DISTRICT',
    level: 3,
    parentId: south.id,
  };
  const hoanKiem = {
    tenantId,
    id: uuidv7(),
    name: 'Hoan Kiem',
    type: 'DISTRICT',
    level: 3,
    parentId: north.id,
  };
  await tx.insert(scopes).values([country]);
  await tx.insert(scopes).values([south, north]);
  await tx.insert(scopes).values([district1, hoanKiem]);

  const centers = [
    {
      tenantId,
      id: uuidv7(),
      scopeId: district1.id,
      name: 'Saigon Heart Center',
      type: 'CLINIC',
      hotline: '19001234',
      phonePrefix: '+84',
      phoneNumber: '2838123456',
      email: 'saigon@demo.example',
      address: '12 Le Loi, District 1, Ho Chi Minh City',
      lat: 10.7769,
      lng: 106.7009,
    },
    {
      tenantId,
      id: uuidv7(),
      scopeId: district1.id,
      name: 'Ben Thanh Family Clinic',
      type: 'CLINIC',
      hotline: '19001235',
      phonePrefix: '+84',
      phoneNumber: '2838123457',
      email: 'benthanh@demo.example',
      address: '45 Pasteur, District 1, Ho Chi Minh City',
      lat: 10.7745,
      lng: 106.6995,
    },
    {
      tenantId,
      id: uuidv7(),
      scopeId: hoanKiem.id,
      name: 'Hoan Kiem Care Center',
      type: 'HOSPITAL',
      hotline: '19001236',
      phonePrefix: '+84',
      phoneNumber: '2438123458',
      email: 'hoankiem@demo.example',
      address: '8 Trang Tien, Hoan Kiem, Ha Noi',
      lat: 21.0245,
      lng: 105.8552,
    },
  ];
  await tx.insert(healthCenters).values(centers);
  const mainCenter = centers[0];
  if (mainCenter === undefined) throw new Error('no demo center');

  const staff: Partial<Record<RoleCode, string>> = {};
  for (const role of TENANT_ROLES.filter((code) => code !== 'PATIENT')) {
    const [firstName, lastName] = STAFF_NAMES[role] ?? [
      role.charAt(0) + role.slice(1).toLowerCase().replaceAll('_', ' '),
      'Demo',
    ];
    const id = uuidv7();
    staff[role] = id;
    await tx.insert(users).values({
      tenantId,
      id,
      email: demoEmail(role),
      firstName,
      lastName,
      role,
      passwordHash,
      healthCenterId: role === 'SCOPE_ADMIN' || role === 'ADMIN' ? null : mainCenter.id,
      scopeId: role === 'SCOPE_ADMIN' ? south.id : null,
    });
  }
  // The simulated duty operator's own account (tools/simulator/operator.ts): it works the demo's SOS
  // cases through the API, and its name says it is simulated in every case history. Placed in no
  // center, an operator works the whole tenant, so every center's cases are worked. Not among the
  // printed logins; a person logged in as the demo operator keeps their session.
  await tx.insert(users).values({
    tenantId,
    id: uuidv7(),
    email: DEMO_DUTY_OPERATOR_EMAIL,
    firstName: 'Simulated',
    lastName: 'Duty operator',
    role: 'OPERATOR',
    passwordHash,
    healthCenterId: null,
  });
  // The main center's admins (one MAIN, the others SUPPORT) and the southern scope's admin.
  const admins = [
    { userId: staff.MAIN_ADMIN, kind: 'MAIN' },
    { userId: staff.SUPPORT_ADMIN, kind: 'SUPPORT' },
    { userId: staff.MHSC_ADMIN, kind: 'SUPPORT' },
  ].flatMap(({ userId, kind }) =>
    userId === undefined ? [] : [{ tenantId, centerId: mainCenter.id, userId, kind }],
  );
  await tx.insert(centerAdmins).values(admins);
  if (staff.SCOPE_ADMIN !== undefined)
    await tx
      .insert(scopeAdmins)
      .values({ tenantId, scopeId: south.id, userId: staff.SCOPE_ADMIN, kind: 'ADMIN' });
  if (staff.DOCTOR_ASSISTANT !== undefined && staff.DOCTOR !== undefined) {
    await tx
      .insert(doctorAssistants)
      .values({ tenantId, assistantId: staff.DOCTOR_ASSISTANT, doctorId: staff.DOCTOR });
  }

  const patientUserId = uuidv7();
  await tx.insert(users).values({
    tenantId,
    id: patientUserId,
    email: demoEmail('PATIENT'),
    phone: '0981000001',
    firstName: 'Hung',
    lastName: 'Pham',
    role: 'PATIENT',
    passwordHash,
    healthCenterId: mainCenter.id,
  });

  const patientRows = Array.from({ length: 40 }, (_, index) => {
    const center = centers[index % centers.length] ?? mainCenter;
    const year = 1940 + ((index * 7) % 60);
    return {
      tenantId,
      id: uuidv7(),
      userId: index === 0 ? patientUserId : null,
      patientCode: `BNCS${10001 + index}`,
      firstName: index === 0 ? 'Hung' : (FIRST_NAMES[index % FIRST_NAMES.length] ?? 'An'),
      lastName: index === 0 ? 'Pham' : (LAST_NAMES[(index * 3) % LAST_NAMES.length] ?? 'Nguyen'),
      birthday: `${year}-${String((index % 12) + 1).padStart(2, '0')}-${String((index % 27) + 1).padStart(2, '0')}`,
      gender: index % 2 === 0 ? 'MALE' : 'FEMALE',
      phone: `098${String(1000001 + index).padStart(7, '0')}`,
      status: STATUSES[index % STATUSES.length] ?? 'NORMAL',
      healthCenterId: center.id,
      // Accounts opened 90 days ago: the simulator's history (6 days) is not older than the account.
      createdAt: new Date(Date.now() - 90 * 24 * 3_600_000),
      ...demoPatientDetails(index, index % centers.length),
    };
  });
  await tx.insert(patients).values(patientRows);
  // The tenant's patient-code sequence continues after the demo rows (BNCS10041 next).
  await tx
    .insert(patientCodeSequences)
    .values({ tenantId, prefix: 'BNCS', nextValue: 10001 + patientRows.length });

  const deviceRows = patientRows.slice(0, 30).map((patient, index) => ({
    tenantId,
    id: uuidv7(),
    model: MODELS[index % MODELS.length] ?? 'V19',
    serialNumber: `SN${String(202600001 + index)}`,
    macAddress: `D4:3B:04:${[index >> 8, index & 255, 0x10 + (index % 200)].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':')}`,
    patientId: patient.id,
    connectionStatus: ([1, 1, 0, -1, 2] as const)[index % 5] ?? 1,
  }));
  await tx.insert(devices).values(deviceRows);

  const data: DemoTenantData = { tenantId, staff, centers, patients: patientRows, devices: deviceRows };
  await seedDemoCareTeam(tx, data);
  await seedDemoDevices(tx, data);
  await seedDemoAlerts(tx, data);
  await seedDemoFollowers(tx, data, passwordHash);
  await seedDemoPackages(tx, data);
  await seedDemoCarePlan(tx, data);
  await seedDemoSchedules(tx, data);
  await seedDemoNotifications(tx, data, 'Linh Nguyen');
  await seedDemoFeedback(tx, data);
}

/** What the tenant seed created, for the per-domain seeds that build on it. */
export interface DemoTenantData {
  tenantId: string;
  /** User id of the one demo login per role. */
  staff: Partial<Record<RoleCode, string>>;
  centers: readonly { id: string; name: string }[];
  patients: readonly { id: string; userId: string | null; patientCode: string; healthCenterId: string }[];
  devices: readonly { id: string; patientId: string; model: string; macAddress: string }[];
}
