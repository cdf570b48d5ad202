import {
  checkHookUrl,
  classifyAddress,
  isRefusal,
  refusedAddress,
  urlOrigin,
} from '../../src/domain/webhookUrl';

const strict = { allowLoopback: false };
const loopback = { allowLoopback: true };

describe('address classes', () => {
  test.each([
    // IPv4
    ['8.8.8.8', undefined],
    ['93.184.216.34', undefined],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', undefined],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'sharedAddressSpace'],
    ['100.127.255.254', 'sharedAddressSpace'],
    ['100.128.0.1', undefined],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.1.1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    // IPv6
    ['2606:4700:4700::1111', undefined],
    ['2a00:1450:4007:80e::200e', undefined],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fec0::1', 'private'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'], // Teredo
    ['100::1', 'reserved'], // discard
    ['3fff::1', 'reserved'], // documentation
    // IPv6 forms that carry an IPv4 address are judged by it
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', undefined],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'], // NAT64 of 169.254.169.254
    ['64:ff9b::808:808', undefined],
    ['2002:c0a8:0101::1', 'private'], // 6to4 of 192.168.1.1
    ['2002:0808:0808::1', undefined],
    // not addresses
    ['example.com', 'invalid'],
    ['', 'invalid'],
    ['1.2.3', 'invalid'],
  ])('%s → %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  test('loopback is allowed only when the policy says so; nothing else ever is', () => {
    expect(refusedAddress('127.0.0.1', strict)).toBe('loopback');
    expect(refusedAddress('::1', strict)).toBe('loopback');
    expect(refusedAddress('::ffff:127.0.0.1', strict)).toBe('loopback');
    expect(refusedAddress('127.0.0.1', loopback)).toBeUndefined();
    expect(refusedAddress('::1', loopback)).toBeUndefined();
    expect(refusedAddress('10.0.0.1', loopback)).toBe('private');
    expect(refusedAddress('169.254.169.254', loopback)).toBe('metadata');
    expect(refusedAddress('8.8.8.8', strict)).toBeUndefined();
  });
});

describe('hook URLs', () => {
  const refusal = (raw: string, policy = strict) => {
    const result = checkHookUrl(raw, policy);
    return isRefusal(result) ? result.code : undefined;
  };

  test.each([
    ['https://hooks.example.com/steward?team=1', undefined],
    ['https://93.184.216.34:8443/in', undefined],
    ['https://[2606:4700:4700::1111]/in', undefined],
    ['not a url', 'invalidUrl'],
    ['/relative/path', 'invalidUrl'],
    [`https://example.com/${'a'.repeat(2100)}`, 'invalidUrl'],
    ['ftp://example.com/x', 'unsupportedScheme'],
    ['file:///etc/passwd', 'unsupportedScheme'],
    ['javascript:alert(1)', 'unsupportedScheme'],
    ['gopher://example.com/', 'unsupportedScheme'],
    ['https://user:pass@example.com/', 'credentialsInUrl'],
    ['https://token@example.com/', 'credentialsInUrl'],
    ['http://example.com/', 'insecureScheme'],
    ['http://localhost:8080/', 'insecureScheme'],
    ['https://127.0.0.1/', 'forbiddenAddress'],
    ['https://localhost/', undefined], // a name: refused once it resolves to loopback
    ['https://10.0.0.8/', 'forbiddenAddress'],
    ['https://169.254.169.254/latest/meta-data/', 'forbiddenAddress'],
    ['https://[fd00:ec2::254]/', 'forbiddenAddress'],
    ['https://[::ffff:a9fe:a9fe]/', 'forbiddenAddress'],
    // Alternative spellings of IPv4 are normalised by the URL parser before the check.
    ['https://2130706433/', 'forbiddenAddress'],
    ['https://0x7f.1/', 'forbiddenAddress'],
    ['https://017700000001/', 'forbiddenAddress'],
    ['https://0/', 'forbiddenAddress'],
  ])('without loopback: %s → %s', (raw, expected) => {
    expect(refusal(raw)).toBe(expected);
  });

  test.each([
    ['http://localhost:8080/hook', undefined],
    ['http://127.0.0.1:8080/hook', undefined],
    ['http://[::1]:8080/hook', undefined],
    ['https://127.0.0.1/hook', undefined],
    ['http://127.0.0.2/hook', 'insecureScheme'],
    ['http://localhost.example.com/', 'insecureScheme'],
    ['http://192.168.0.1/', 'insecureScheme'],
    ['https://192.168.0.1/', 'forbiddenAddress'],
    ['http://user:x@localhost/', 'credentialsInUrl'],
  ])('with loopback allowed: %s → %s', (raw, expected) => {
    expect(refusal(raw, loopback)).toBe(expected);
  });

  test('the origin shown in logs and audit records drops the path and query', () => {
    expect(urlOrigin('https://hooks.example.com/services/T0/B0/SECRET?token=x')).toBe(
      'https://hooks.example.com',
    );
    expect(urlOrigin('nope')).toBe('(invalid URL)');
  });
});
