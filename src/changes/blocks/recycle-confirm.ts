/**
 * Freeing a seat in a full transferable pool: before anything is sent, name the
 * license that will end (by default the API's own pick) with its student, e-mail, start and progress,
 * and let the manager pick another active license of the pool instead. The picker lists name and
 * start (progress would cost one read per license); a pick is sent back at once (dispatch_action)
 * and the confirmation is rebuilt to name the license picked, with its progress. Pure.
 */

import { CallbackId, InputId } from '../../kernel/blocks/ids.js';
import { context, section } from '../../kernel/blocks/kit.js';
import { compactView, input, type ModalView, modal, option } from '../../kernel/blocks/modal-kit.js';
import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import { percentText } from '../../kernel/blocks/percent.js';
import { dayText } from '../../kernel/domain/end-date.js';
import type { License, Pool } from '../../kernel/domain/types.js';

export interface RecycleConfirmInput {
  pool: Pool;
  candidates: License[];
  defaultLicense: License | undefined;
  defaultProgress: { progress: number; completed: string | null } | undefined;
  /** A license the manager picked instead of the default, with its progress when told. */
  picked?: { license: License; progress: { progress: number; completed: string | null } | undefined } | undefined;
  /** Who gets the freed seat (the actor's own modal: the e-mail may show). */
  newStudent: { email: string; name?: string };
  privateMetadata: string;
}

export const RECYCLE_TITLE = 'Free a seat';

function progressText(p: RecycleConfirmInput['defaultProgress']): string {
  if (!p) return 'progress not available';
  if (p.completed) return `completed the course ${dayText(p.completed)}`;
  return `${percentText(p.progress)} of the course done`;
}

export function candidateOption(license: License, isDefault = false) {
  const name = license.student.name || 'Student';
  const own = isDefault ? ' · the service’s pick' : '';
  return option(`${name} · since ${dayText(license.start)}${own}`, license.id, license.student.email);
}

function licenseLines(license: License, progress: RecycleConfirmInput['defaultProgress']): string[] {
  return [
    `*${escapeTruncated(license.student.name, 100)}* ${escapeTruncated(license.student.email, 254)}`,
    `license \`${escapeMrkdwn(license.id)}\` · started ${dayText(license.start)} · ${progressText(progress)}`,
  ];
}

export function buildRecycleConfirmModal(input_: RecycleConfirmInput): ModalView {
  const { pool, candidates, defaultLicense, newStudent } = input_;
  const course = escapeTruncated(pool.course.title, 200);
  const who = `${newStudent.name ? `*${escapeTruncated(newStudent.name, 100)}* ` : ''}${escapeTruncated(newStudent.email, 254)}`;
  if (!defaultLicense) {
    return modal({
      callbackId: CallbackId.changeInfo,
      title: RECYCLE_TITLE,
      blocks: [
        section(`Pool \`${escapeMrkdwn(pool.id)}\` (${course}) has no active license to end; nothing was changed.`),
      ],
    });
  }
  const d = defaultLicense;
  const options = candidates.map((c) => candidateOption(c, c.id === d.id));
  const picked = input_.picked && input_.picked.license.id !== d.id ? input_.picked : undefined;
  const initial = options.find((o) => o.value === (picked?.license.id ?? d.id));
  const named = picked
    ? [
        'The license that ends, as you picked:',
        ...licenseLines(picked.license, picked.progress),
        `_Instead of the licensing service's own pick, its oldest active license: ${escapeTruncated(d.student.name, 100)}, license \`${escapeMrkdwn(d.id)}\`._`,
      ]
    : ['By default the licensing service ends its oldest active license:', ...licenseLines(d, input_.defaultProgress)];
  return modal({
    callbackId: CallbackId.recycleConfirm,
    title: RECYCLE_TITLE,
    submit: 'End it and assign',
    close: 'Cancel',
    privateMetadata: input_.privateMetadata,
    blocks: compactView([
      section(
        `Pool \`${escapeMrkdwn(pool.id)}\` (*${course}*) is full. To give a seat to ${who}, one license of the pool must end *now*.`,
      ),
      section(named.join('\n')),
      input(
        InputId.recycleChoice.block,
        'License that ends',
        {
          type: 'static_select',
          action_id: InputId.recycleChoice.action,
          options,
          ...(initial ? { initial_option: initial } : {}),
        },
        {
          hint: 'Oldest first, by name and start. Pick another license of this pool to end instead: its course progress then shows above.',
          dispatchAction: true,
        },
      ),
      context(
        'That student loses access to the course at once; the freed seat goes to the new student. Nothing is sent before you confirm.',
      ),
    ]),
  });
}
