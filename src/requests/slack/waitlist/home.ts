/** The waitlist section under the App Home dashboard, for license admins (the gate's verdict: `canChange`). */

import type { HomeView } from '../../../home/index.js';
import { divider } from '../../../kernel/blocks/kit.js';
import type { AppDeps } from '../../../kernel/slack/deps.js';
import { buildWaitlistHomeSection } from '../../blocks/waitlist.js';

export async function withWaitlist(deps: AppDeps, canChange: boolean, view: HomeView): Promise<HomeView> {
  if (!deps.waitlist || !canChange) return view;
  try {
    const entries = await deps.waitlist.entries();
    return { ...view, blocks: [...view.blocks, divider(), ...buildWaitlistHomeSection(entries)] };
  } catch (error) {
    deps.logger.warn('could not read the waitlist for the Home tab', { error: String(error) });
    return view;
  }
}
