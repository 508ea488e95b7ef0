import { readFileSync } from 'node:fs';
import { verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { commandBody, interactionBody, slackHeaders, slackSignature } from '../../support/slack-signing.js';

const fixtures = new URL('../../../../shared/slack/fixtures/', import.meta.url);
const vector = JSON.parse(readFileSync(new URL('signing-test-vector.json', fixtures), 'utf8')) as {
  signing_secret: string;
  headers: Record<string, string>;
  raw_body: string;
};

describe('signing as Slack signs', () => {
  it('reproduces the published test vector', () => {
    const ts = vector.headers['X-Slack-Request-Timestamp'] ?? '';
    expect(slackSignature(vector.signing_secret, ts, vector.raw_body)).toBe(vector.headers['X-Slack-Signature']);
    expect(slackHeaders(vector.signing_secret, vector.raw_body, { timestamp: Number(ts) })).toEqual(vector.headers);
  });

  it('encodes a slash command byte for byte as Slack does', () => {
    const fields = JSON.parse(readFileSync(new URL('slash-command.json', fixtures), 'utf8')) as Record<string, string>;
    expect(commandBody(fields)).toBe(readFileSync(new URL('slash-command.body.txt', fixtures), 'utf8'));
    expect(commandBody(fields)).toBe(vector.raw_body);
  });

  it("passes Bolt's own verification, interactions included", () => {
    const body = interactionBody({ type: 'block_actions', actions: [{ action_id: 'a', value: 'x & <y>' }] });
    const headers = slackHeaders('s3cret-signing', body);
    const nowMs = Number(headers['X-Slack-Request-Timestamp']) * 1000;
    expect(() =>
      verifySlackRequest({
        signingSecret: 's3cret-signing',
        body,
        headers: {
          'x-slack-signature': headers['X-Slack-Signature'] ?? '',
          'x-slack-request-timestamp': Number(headers['X-Slack-Request-Timestamp']),
        },
        nowMilliseconds: nowMs,
      }),
    ).not.toThrow();
    expect(new URLSearchParams(body).get('payload')).toContain('"value":"x & <y>"');
  });
});
