/**
 * A watch's state in the app (spec §4 patient app device states): unpaired, connecting,
 * connected, disconnected, upgrading firmware, Bluetooth off. Pure: the page and the watches'
 * drivers send events, and this says where the watch is now. An event that makes no sense in a
 * state (a firmware upgrade while disconnected) leaves the state as it was.
 */
export const WATCH_STATES = ['unpaired', 'connecting', 'connected', 'disconnected', 'upgrading', 'bluetoothOff'] as const;
export type WatchState = (typeof WATCH_STATES)[number];

export type WatchEvent =
  | 'pair'
  | 'connected'
  | 'connectionLost'
  | 'reconnect'
  | 'unpair'
  | 'upgradeStarted'
  | 'upgradeFinished'
  | 'upgradeFailed'
  | 'bluetoothOff'
  | 'bluetoothOn';

const TRANSITIONS: Record<WatchState, Partial<Record<WatchEvent, WatchState>>> = {
  unpaired: { pair: 'connecting', bluetoothOff: 'bluetoothOff' },
  connecting: { connected: 'connected', connectionLost: 'disconnected', unpair: 'unpaired', bluetoothOff: 'bluetoothOff' },
  connected: { connectionLost: 'disconnected', upgradeStarted: 'upgrading', unpair: 'unpaired', bluetoothOff: 'bluetoothOff' },
  disconnected: { reconnect: 'connecting', unpair: 'unpaired', bluetoothOff: 'bluetoothOff' },
  // A finished or failed upgrade leaves the watch connected; losing it mid-way disconnects it.
  upgrading: { upgradeFinished: 'connected', upgradeFailed: 'connected', connectionLost: 'disconnected', bluetoothOff: 'bluetoothOff' },
  // Bluetooth back on: the watch must reconnect.
  bluetoothOff: { bluetoothOn: 'disconnected', unpair: 'unpaired' },
};

export function nextWatchState(state: WatchState, event: WatchEvent): WatchState {
  return TRANSITIONS[state][event] ?? state;
}

/** Whether the watch can start a firmware upgrade now (connected, nothing else under way). */
export const canUpgrade = (state: WatchState) => state === 'connected';
