import { describe, expect, it } from 'vitest';
import { deviceStateOf, isActivatedDevice, type StoredDeviceState } from './device-state.js';

const at = new Date('2026-11-24T10:00:00Z');
const device = (changes: Partial<StoredDeviceState>): StoredDeviceState => ({
  connectionStatus: -1,
  appStatus: 'NO_SYNC',
  activatedAt: null,
  firstConnectedAt: null,
  lastSyncedAt: null,
  ...changes,
});

describe('device state', () => {
  it('never shows a device that synced as not activated: syncing now, it is connected', () => {
    expect(deviceStateOf(device({ appStatus: 'ONLINE', lastSyncedAt: at }))).toEqual({
      connectionStatus: 1,
      appStatus: 'ONLINE',
      isActivated: true,
    });
  });

  it('shows an activated device whose app stopped syncing as disconnected', () => {
    for (const appStatus of ['OFFLINE', 'KILLED', 'NO_SYNC'] as const) {
      expect(deviceStateOf(device({ appStatus, activatedAt: at }))).toEqual({
        connectionStatus: 0,
        appStatus,
        isActivated: true,
      });
    }
  });

  it('keeps a known connection status of an activated device', () => {
    expect(
      deviceStateOf(device({ connectionStatus: 2, appStatus: 'ONLINE', firstConnectedAt: at })),
    ).toMatchObject({
      connectionStatus: 2,
    });
    expect(
      deviceStateOf(device({ connectionStatus: 0, appStatus: 'OFFLINE', lastSyncedAt: at })),
    ).toMatchObject({
      connectionStatus: 0,
    });
  });

  it('shows a device that never connected nor synced as not activated, with no app status but NO_SYNC', () => {
    expect(deviceStateOf(device({ appStatus: 'ONLINE' }))).toEqual({
      connectionStatus: -1,
      appStatus: 'NO_SYNC',
      isActivated: false,
    });
    expect(deviceStateOf(device({ connectionStatus: 0, appStatus: 'KILLED' }))).toMatchObject({
      connectionStatus: 0,
      isActivated: true,
    });
    expect(isActivatedDevice(device({}))).toBe(false);
    expect(isActivatedDevice(device({ lastSyncedAt: at }))).toBe(true);
  });

  it('never pairs NOT_ACTIVATED with an app status other than NO_SYNC', () => {
    const dates = [null, at];
    for (const connectionStatus of [1, 0, -1, 2])
      for (const appStatus of ['ONLINE', 'OFFLINE', 'KILLED', 'NO_SYNC'])
        for (const activatedAt of dates)
          for (const lastSyncedAt of dates) {
            const state = deviceStateOf(device({ connectionStatus, appStatus, activatedAt, lastSyncedAt }));
            expect(state.connectionStatus === -1).toBe(!state.isActivated);
            if (state.connectionStatus === -1) expect(state.appStatus).toBe('NO_SYNC');
          }
  });
});
