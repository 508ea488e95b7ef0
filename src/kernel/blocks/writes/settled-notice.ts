/**
 * The direct message that tells an admin what became of a write that was in flight when License Desk
 * was killed, once the next start read it back (domain/writes/settled-notice.ts). One sentence, starting
 * "After a restart:". Pure.
 */
import type { SettledWriteNotice } from '../../domain/writes/settled-notice.js';
import { type SlackMessage, section } from '../kit.js';
import { dayText, escapeMrkdwn, escapeTruncated } from '../mrkdwn.js';

const code = (s: string) => `\`${escapeMrkdwn(s)}\``;
const name = (s: string | undefined) => (s ? escapeTruncated(s, 100) : 'the student');
const pool = (n: SettledWriteNotice) => (n.poolId ? ` in pool ${code(n.poolId)}` : '');
const license = (id: string | undefined) => (id ? ` ${code(id)}` : '');

function sentence(n: SettledWriteNotice): string {
  switch (n.write) {
    case 'revoke':
      if (n.byHolder) {
        return n.result === 'done'
          ? `your return of license${license(n.licenseId)}${pool(n)} was done: the seat is given back.`
          : `your return of license${license(n.licenseId)}${pool(n)} was not done: your license is still active. Return it again from \`/licenses mine\` if you still want to.`;
      }
      return n.result === 'done'
        ? `the revoke of ${name(n.studentName)}'s license${license(n.licenseId)}${pool(n)} was done: the license is revoked.`
        : `the revoke of ${name(n.studentName)}'s license${license(n.licenseId)}${pool(n)} was not done: the license is still active. Revoke it again if you still want to.`;
    case 'end-date': {
      const day = n.endDate ? dayText(n.endDate) : 'the day you chose';
      const what = `the change of ${name(n.studentName)}'s license${license(n.licenseId)} to end ${day}`;
      if (n.result === 'done') return `${what} was done${n.past ? ': the license has ended' : ''}.`;
      const now = n.endsNow ? ` it still ends ${dayText(n.endsNow)}.` : ' the license was not changed.';
      return `${what} was not done:${now} Change it again if you still want to.`;
    }
    case 'assign':
      return n.result === 'done'
        ? `the assign of a license${pool(n)} to ${name(n.newcomer)} was done${n.assignedLicenseId ? ` (license ${code(n.assignedLicenseId)})` : ''}.`
        : `the assign of a license${pool(n)} to ${name(n.newcomer)} was not done: nobody was assigned. Assign again if you still want to.`;
    case 'recycle': {
      const what = `the recycle${pool(n)} (ending ${name(n.studentName)}'s license${license(n.licenseId)} for ${name(n.newcomer)})`;
      if (n.result === 'done') {
        return `${what} was done${n.assignedLicenseId ? `: ${name(n.newcomer)} got license ${code(n.assignedLicenseId)}` : ''}.`;
      }
      if (n.result === 'freed-only') {
        return `${what} was done only half: the old license ended, but ${name(n.newcomer)} got no license, so the seat is free. Assign it with \`/licenses assign\`.`;
      }
      return `${what} was not done: nothing changed. Recycle again if you still want to.`;
    }
  }
}

export function buildSettledWriteMessage(n: SettledWriteNotice): SlackMessage {
  const text = `After a restart: ${sentence(n)}`;
  const icon = n.result === 'done' ? ':white_check_mark:' : ':information_source:';
  return { text, blocks: [section(`${icon} ${text}`)] };
}
