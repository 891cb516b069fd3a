/** The devices tab of a patient profile: bound devices, their states and histories. */
export function PatientDevicesTab(_props: { patientId: string }) {
  return null;
}
