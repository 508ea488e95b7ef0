import { readFileSync } from 'node:fs';
import { verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { commandBody, interactionBody, slackHeaders, slackSignature } from '../../support/slack-signing.js';

interface SigningVector {
  signing_secret: string;
  headers: Record<string, string>;
  raw_body: string;
}

/** Slack-shaped payloads kept in the repo; test/fixtures/slack/README.md says where they come from. */
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/slack/${name}`, import.meta.url), 'utf8');

describe('signing as Slack signs', () => {
  it('reproduces the published test vector', () => {
    const vector = JSON.parse(fixture('signing-test-vector.json')) as SigningVector;
    const ts = vector.headers['X-Slack-Request-Timestamp'] ?? '';
    expect(slackSignature(vector.signing_secret, ts, vector.raw_body)).toBe(vector.headers['X-Slack-Signature']);
    expect(slackHeaders(vector.signing_secret, vector.raw_body, { timestamp: Number(ts) })).toEqual(vector.headers);
  });

  it('encodes a slash command byte for byte as Slack does', () => {
    const vector = JSON.parse(fixture('signing-test-vector.json')) as SigningVector;
    const fields = JSON.parse(fixture('slash-command.json')) as Record<string, string>;
    expect(commandBody(fields)).toBe(fixture('slash-command.body.txt'));
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
