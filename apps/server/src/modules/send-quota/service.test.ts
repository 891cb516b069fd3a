import { describe, expect, it } from 'vitest';
import { clientAddressKey, destinationKey } from './service.js';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address, also when it comes IPv4-mapped', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64 network, however it is written', () => {
    const network = '2001:db8:a:b::/64';
    expect(clientAddressKey('2001:db8:a:b::1')).toBe(network);
    expect(clientAddressKey('2001:0db8:000a:000b:ffff:1:2:3')).toBe(network);
    expect(clientAddressKey('2001:DB8:A:B:0:0:0:9')).toBe(network);
    expect(clientAddressKey('2001:db8:a:b::1%eth0')).toBe(network);
    expect(clientAddressKey('2001:db8:a:c::1')).not.toBe(network);
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('has one key for a missing address', () => {
    expect(clientAddressKey(null)).toBe('unknown');
    expect(clientAddressKey('')).toBe('unknown');
  });
});

describe('destinationKey', () => {
  it('counts one mailbox however it is written or tagged', () => {
    expect(destinationKey('EMAIL', ' Lan.Tran@Example.com ')).toBe('lan.tran@example.com');
    expect(destinationKey('EMAIL', 'lan.tran+news@example.com')).toBe('lan.tran@example.com');
    expect(destinationKey('EMAIL', 'lan.tran+a+b@example.com')).toBe('lan.tran@example.com');
    expect(destinationKey('EMAIL', '+only@example.com')).toBe('+only@example.com');
    expect(destinationKey('EMAIL', 'not-an-email')).toBe('not-an-email');
  });

  it('counts a phone by its digits (and a leading +)', () => {
    expect(destinationKey('SMS', '098 100-0001')).toBe('0981000001');
    expect(destinationKey('SMS', '(098) 100.0001')).toBe('0981000001');
    expect(destinationKey('SMS', '+84 98 100 0001')).toBe('+84981000001');
    expect(destinationKey('SMS', '84+981')).toBe('84981');
  });
});
