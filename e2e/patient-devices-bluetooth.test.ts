import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_PATH, DEMO_PASSWORD, DEMO_TENANT_CODE, type RunningServer } from './support/harness.js';
import { screenshot, startTestServer } from './support/console.js';

/**
 * Pairing a Bluetooth heart-rate strap (service 0x180D) in the patient app, with Chromium's
 * Bluetooth emulation over the DevTools protocol: a simulated peripheral offering the Heart Rate
 * service and its measurement characteristic (0x2A37), the browser's device chooser answered
 * through DeviceAccess, the connection, discovery and subscription answered through
 * BluetoothEmulation. This Chromium's emulation cannot push a notification value, so the
 * measurements themselves are covered by the parser's unit tests.
 */

const ADDRESS = '09:09:09:09:09:09';
const uuid = (short: string) => `0000${short}-0000-1000-8000-00805f9b34fb`;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  // Web Bluetooth on Linux is behind the experimental web platform features.
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--enable-experimental-web-platform-features'],
  });
});

afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Answers every GATT, characteristic and descriptor operation of the peripheral with success. */
function answerOperations(emulation: CDPSession): void {
  emulation.on('BluetoothEmulation.gattOperationReceived', (event) => {
    void emulation.send('BluetoothEmulation.simulateGATTOperationResponse', { address: event.address, type: event.type, code: 0 });
  });
  emulation.on('BluetoothEmulation.characteristicOperationReceived', (event) => {
    void emulation.send('BluetoothEmulation.simulateCharacteristicOperationResponse', { characteristicId: event.characteristicId, type: event.type, code: 0 });
  });
  emulation.on('BluetoothEmulation.descriptorOperationReceived', (event) => {
    void emulation.send('BluetoothEmulation.simulateDescriptorOperationResponse', { descriptorId: event.descriptorId, type: event.type, code: 0 });
  });
}

it('pairs a heart-rate strap offering the standard service and shows it connected', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, baseURL: server.baseUrl, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto('/app/');
  await page.waitForURL('**/app/login');
  await page.getByLabel('Tenant code').fill(DEMO_TENANT_CODE);
  await page.getByLabel('Email or phone number').fill('patient@demo.example');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).tap();
  await page.waitForURL(/\/app\/?$/);
  await page.getByRole('link', { name: 'Devices' }).first().tap();
  await page.waitForURL('**/app/devices');

  const emulation = await browser.newBrowserCDPSession();
  answerOperations(emulation);
  await emulation.send('BluetoothEmulation.enable', { state: 'powered-on', leSupported: true });
  await emulation.send('BluetoothEmulation.simulatePreconnectedPeripheral', { address: ADDRESS, name: 'HR Strap', manufacturerData: [], knownServiceUuids: [uuid('180d')] });
  const { serviceId } = await emulation.send('BluetoothEmulation.addService', { address: ADDRESS, serviceUuid: uuid('180d') });
  const { characteristicId } = await emulation.send('BluetoothEmulation.addCharacteristic', { serviceId, characteristicUuid: uuid('2a37'), properties: { notify: true } });
  await emulation.send('BluetoothEmulation.addDescriptor', { characteristicId, descriptorUuid: uuid('2902') });

  // The browser's chooser: pick the strap once (the prompt is announced again as it updates).
  const chooser = await context.newCDPSession(page);
  await chooser.send('DeviceAccess.enable');
  const offered: string[] = [];
  chooser.on('DeviceAccess.deviceRequestPrompted', (event) => {
    const [device] = event.devices;
    if (device === undefined || offered.includes(event.id)) return;
    offered.push(event.id);
    void chooser.send('DeviceAccess.selectPrompt', { id: event.id, deviceId: device.id });
  });

  await page.getByRole('button', { name: 'Pair a Bluetooth watch' }).tap();
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Bluetooth heart-rate watch or strap' }) });
  await expect.poll(() => card.getByTestId('watch-state').textContent()).toBe('Connected');
  expect(await card.getByText('HR Strap').isVisible()).toBe(true);
  expect(offered).toHaveLength(1);
  await screenshot(page, 'patient-devices-bluetooth');

  // The strap goes away: the app shows it disconnected.
  await emulation.send('BluetoothEmulation.simulateGATTDisconnection', { address: ADDRESS });
  await expect.poll(() => card.getByTestId('watch-state').textContent()).toBe('Disconnected');
  await context.close();
});
