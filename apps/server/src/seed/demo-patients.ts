import { BLOOD_TYPES } from '@rpm/contracts';

/** Where the demo centers are: patients live near their center. */
const AREAS = [
  {
    province: 'Ho Chi Minh City',
    district: 'District 1',
    wards: ['Ben Nghe', 'Ben Thanh', 'Da Kao', 'Nguyen Thai Binh'],
    streets: ['Le Loi', 'Pasteur', 'Hai Ba Trung', 'Nam Ky Khoi Nghia'],
  },
  {
    province: 'Ho Chi Minh City',
    district: 'District 3',
    wards: ['Vo Thi Sau', 'Ward 4', 'Ward 9', 'Ward 12'],
    streets: ['Nguyen Dinh Chieu', 'Vo Van Tan', 'Cach Mang Thang Tam', 'Le Van Sy'],
  },
  {
    province: 'Ha Noi',
    district: 'Hoan Kiem',
    wards: ['Trang Tien', 'Hang Bac', 'Hang Trong', 'Cua Nam'],
    streets: ['Trang Tien', 'Hang Bai', 'Ly Thuong Kiet', 'Dinh Tien Hoang'],
  },
] as const;

const NOTES = [
  'Hypertension since 2015; takes amlodipine 5 mg daily.',
  'Type 2 diabetes, diet-controlled. Annual eye check due.',
  'Atrial fibrillation; on anticoagulants. Watch for falls.',
  'No known chronic conditions.',
  'Mild asthma; uses a salbutamol inhaler when needed.',
  'Former smoker (20 pack-years). COPD stage 1.',
];

/**
 * The profile fields of demo patient `index` (0-39) living near center `centerIndex`: height,
 * weight, blood type, address, notes, some emails, a couple of contract ids and packages.
 */
export function demoPatientDetails(index: number, centerIndex: number) {
  const area = AREAS[centerIndex % AREAS.length] ?? AREAS[0];
  const isMale = index % 2 === 0;
  const heightCm = (isMale ? 160 : 150) + ((index * 7) % 20);
  const weightKg = Math.round(((isMale ? 55 : 45) + ((index * 11) % 30) + (index % 3) * 0.5) * 10) / 10;
  return {
    heightCm,
    weightKg,
    bloodType: BLOOD_TYPES[(index * 5) % BLOOD_TYPES.length] ?? 'O+',
    addressLine: `${String(10 + ((index * 13) % 190))} ${area.streets[index % area.streets.length] ?? ''}`,
    addressWard: area.wards[(index * 3) % area.wards.length] ?? '',
    addressDistrict: area.district,
    addressProvince: area.province,
    addressCountry: 'Vietnam',
    medicalNotes: NOTES[index % NOTES.length] ?? '',
    email: index % 3 === 0 ? `patient${String(10001 + index)}@mail.demo.example` : null,
    contractId: index === 1 || index === 4 ? `HD-2026-${String(100 + index)}` : null,
    packageCode: index % 4 === 0 ? '12MCARE' : index % 4 === 1 ? '24MCARE' : null,
    packageExpiresAt: index % 4 === 0 ? '2027-01-31' : index % 4 === 1 ? '2028-01-31' : null,
  };
}
