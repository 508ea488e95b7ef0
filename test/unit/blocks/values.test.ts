/**
 * The codecs of button values and private_metadata: readable names in code, the short-keyed wire
 * format of views already open in Slack, and nothing but undefined for an altered or forged value.
 */
import { describe, expect, it } from 'vitest';
import * as values from '../../../src/kernel/blocks/values.js';

describe('private_metadata keeps its wire format', () => {
  it('a recycle confirmation opened before a deploy decodes, and encoding gives back the same string', () => {
    const wire = '{"c":"C0DESK0001","p":"2003","e":"ada@example.com","n":"Ada","d":"2027-01-31","x":"5001"}';
    const meta = values.pendingAssignMeta.decode(wire);
    expect(meta).toEqual({
      channelId: 'C0DESK0001',
      poolId: '2003',
      email: 'ada@example.com',
      name: 'Ada',
      endDate: '2027-01-31',
      defaultLicenseId: '5001',
      revokedLicenseId: undefined,
    });
    expect(meta && values.pendingAssignMeta.encode(meta)).toBe(wire);
  });

  it('a Retry assign view drops the default and names the revoked license, keys in the old order', () => {
    const meta = values.pendingAssignMeta.decode('{"p":"2003","e":"ada@example.com","x":"5001"}');
    if (!meta) throw new Error('did not decode');
    const retry = values.pendingAssignMeta.encode({ ...meta, defaultLicenseId: undefined, revokedLicenseId: '5001' });
    expect(retry).toBe('{"p":"2003","e":"ada@example.com","r":"5001"}');
    expect(values.pendingAssignMeta.decode(retry)?.revokedLicenseId).toBe('5001');
  });

  it('the end-date form, its past-date confirmation and the assign form', () => {
    expect(values.endDateFormMeta.encode({ channelId: 'C0DESK0001', licenseId: '4002' })).toBe(
      '{"c":"C0DESK0001","l":"4002"}',
    );
    expect(values.endDateFormMeta.decode('{"l":"4002"}')).toEqual({ channelId: undefined, licenseId: '4002' });
    const past = '{"c":"C0DESK0001","l":"4002","d":"2025-01-01"}';
    expect(values.pastEndDateMeta.encode(values.pastEndDateMeta.decode(past) ?? { licenseId: 'x', endDate: 'x' })).toBe(
      past,
    );
    expect(values.assignFormMeta.encode({ channelId: undefined })).toBe('{}');
    expect(values.assignFormMeta.decode('{"c":"C0DESK0001"}')).toEqual({ channelId: 'C0DESK0001' });
  });

  it.each([
    ['not JSON', 'c=C0DESK0001'],
    ['a forged pool id', '{"p":"2003;drop","e":"ada@example.com"}'],
    ['no e-mail', '{"p":"2003"}'],
    ['a forged channel', '{"c":"https://evil","p":"2003","e":"ada@example.com"}'],
    ['a date that is not a day', '{"p":"2003","e":"ada@example.com","d":"tomorrow"}'],
    ['more than Slack keeps', `{"p":"2003","e":"ada@example.com","n":"${'a'.repeat(3000)}"}`],
    ['nothing', undefined],
  ])('%s decodes to undefined', (_what, wire) => {
    expect(values.pendingAssignMeta.decode(wire)).toBeUndefined();
  });
});

describe('button values', () => {
  it('a well-formed id passes as it is; anything else is no id at all', () => {
    expect(values.idValue.decode('5001')).toBe('5001');
    expect(values.idValue.encode('5001')).toBe('5001');
    expect(values.idValue.decode('5001<!channel>')).toBeUndefined();
    expect(values.idValue.decode('')).toBeUndefined();
    expect(values.idValue.decode(undefined)).toBeUndefined();
  });

  it('only a channel id is kept for the reply', () => {
    expect(values.channelOf('C0DESK0001')).toBe('C0DESK0001');
    expect(values.channelOf('D0DM000001')).toBe('D0DM000001');
    expect(values.channelOf('U0ADMIN001')).toBeUndefined();
  });
});
