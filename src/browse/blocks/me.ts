/** `/licenses me`: the licensing account behind the API token, with the allowed e-mail domains. */

import { type Block, context, header, mrkdwn, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { Me } from '../../kernel/domain/types.js';

const DOMAINS_TEXT_MAX = 2500;

export function buildMeMessage(me: Me): SlackMessage {
  const fields = [
    `*Account*\n${escapeTruncated(me.name, 300)}`,
    `*E-mail*\n${escapeTruncated(me.email, 254)}`,
    `*Pools*\n${me.pools}`,
    `*Licenses bought*\n${me.licenses}`,
    `*Transferable*\n${me.transferableLicenses}`,
    `*Not transferable*\n${me.untransferableLicenses}`,
  ].map(mrkdwn);
  const domains = me.allowedDomainsForTransferableLicenses;
  const domainText =
    domains.length === 0
      ? 'No e-mail domains are listed for transferable licenses.'
      : escapeTruncated(domains.join(', '), DOMAINS_TEXT_MAX);
  const blocks: Block[] = [
    header('Your licensing account'),
    { type: 'section', fields },
    section(`*E-mail domains allowed for transferable licenses*\n${domainText}`),
    context('Untransferable licenses may go to any e-mail address.'),
  ];
  return { text: `Licensing account ${escapeMrkdwn(me.name)}`, blocks };
}
