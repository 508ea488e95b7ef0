/**
 * The export's progress message in the requester's DM, updated while the pages come in ("page 40
 * of 155, about 3 min left"), then once more when the file went out or the export stopped. Pure.
 */
import { type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { escapeMrkdwn } from '../../kernel/blocks/mrkdwn.js';

export type ExportProgressState =
  | { kind: 'running'; what: string; pagesDone: number; pagesTotal: number; msLeft: number | undefined }
  | { kind: 'done'; what: string; rows: number; pages: number }
  | { kind: 'failed'; what: string };

function timeLeft(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 60_000) return ', less than a minute left';
  const minutes = Math.round(ms / 60_000);
  return minutes < 90 ? `, about ${minutes} min left` : `, about ${Math.round(minutes / 60)} h left`;
}

export function buildExportProgressMessage(state: ExportProgressState): SlackMessage {
  const what = escapeMrkdwn(state.what);
  let text: string;
  if (state.kind === 'running') {
    const total = Math.max(state.pagesTotal, state.pagesDone);
    text = `:hourglass_flowing_sand: Exporting ${what}: page ${state.pagesDone} of about ${total}${timeLeft(state.msLeft)}. License Desk reads at background pace, so other requests are not held up.`;
  } else if (state.kind === 'done') {
    text = `:white_check_mark: Export of ${what} done: ${state.rows} row${state.rows === 1 ? '' : 's'} from ${state.pages} page${state.pages === 1 ? '' : 's'}; the file follows.`;
  } else {
    text = `:warning: The export of ${what} stopped; your reply in the channel says why. Nothing was sent.`;
  }
  return { text, blocks: [section(text)] };
}
