import { describe, expect, it } from 'vitest';
import { canUpgrade, nextWatchState, WATCH_STATES, type WatchEvent, type WatchState } from './watch-state';

const run = (events: WatchEvent[], from: WatchState = 'unpaired') => events.reduce(nextWatchState, from);

describe('a watch in the app', () => {
  it('pairs, connects, upgrades its firmware and comes back connected', () => {
    expect(run(['pair'])).toBe('connecting');
    expect(run(['pair', 'connected'])).toBe('connected');
    expect(run(['pair', 'connected', 'upgradeStarted'])).toBe('upgrading');
    expect(run(['pair', 'connected', 'upgradeStarted', 'upgradeFinished'])).toBe('connected');
    expect(run(['pair', 'connected', 'upgradeStarted', 'upgradeFailed'])).toBe('connected');
  });

  it('disconnects when the link is lost and reconnects through connecting', () => {
    expect(run(['pair', 'connected', 'connectionLost'])).toBe('disconnected');
    expect(run(['pair', 'connected', 'connectionLost', 'reconnect', 'connected'])).toBe('connected');
    expect(run(['pair', 'connected', 'upgradeStarted', 'connectionLost'])).toBe('disconnected');
  });

  it('goes to Bluetooth off from anywhere but unpaired-only states, and back to disconnected', () => {
    for (const state of WATCH_STATES) expect(nextWatchState(state, 'bluetoothOff')).toBe('bluetoothOff');
    expect(run(['bluetoothOn'], 'bluetoothOff')).toBe('disconnected');
  });

  it('ignores events that make no sense in a state', () => {
    expect(nextWatchState('disconnected', 'upgradeStarted')).toBe('disconnected');
    expect(nextWatchState('unpaired', 'connected')).toBe('unpaired');
    expect(nextWatchState('bluetoothOff', 'connected')).toBe('bluetoothOff');
    expect(nextWatchState('upgrading', 'unpair')).toBe('upgrading');
  });

  it('unpairs from any state but an upgrade under way', () => {
    for (const state of ['connecting', 'connected', 'disconnected', 'bluetoothOff'] as const) expect(nextWatchState(state, 'unpair')).toBe('unpaired');
  });

  it('allows an upgrade only while connected', () => {
    expect(WATCH_STATES.filter(canUpgrade)).toEqual(['connected']);
  });
});
