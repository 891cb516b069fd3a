/** The care team tab of a patient profile: assigned doctors (family doctor, specialists). */
export function PatientCareTeamTab(_props: { patientId: string }) {
  return null;
}
