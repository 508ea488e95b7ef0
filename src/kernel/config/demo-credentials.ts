/**
 * The local demo's credentials, public on purpose (the demo listens on 127.0.0.1 only and reaches
 * nothing real). The product knows them for two reasons: src/kernel/config/config.ts refuses the signing secret
 * anywhere but the demo, and src/main.ts signs and talks to the local Slack double with them in demo
 * mode. The rest of the demo (its users, its banner, the double itself) lives in local/slack/.
 */
export const DEMO_SIGNING_SECRET = 'license-desk-local-demo-signing-secret';
export const DEMO_BOT_TOKEN = 'xoxb-demo';
