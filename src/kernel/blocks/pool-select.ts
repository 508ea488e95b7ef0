/**
 * The pool menu of the assign and bulk-assign forms. A static_select holds at most 100 options
 * (platform.md section 5); with more pools to offer, the menu is an external_select whose options
 * Slack asks for as the person types (block_suggestion), answered by buildPoolSuggestions from the
 * cached pools list. Either way the submission carries the choice as `selected_option.value`. Pure.
 */
import { searchPools } from '../domain/pool-search.js';
import type { Pool } from '../domain/types.js';
import { plain } from './kit.js';
import { LIMITS } from './limits.js';
import type { ExternalSelect, OptionObject, StaticSelect } from './modal-kit.js';

/** Whether this many pools need the type-ahead menu. */
export const needsTypeAhead = (pools: number): boolean => pools > LIMITS.selectOptions;

export function poolSelectElement(input: {
  actionId: string;
  placeholder: string;
  /** Every pool offered, in menu order. */
  pools: readonly Pool[];
  label: (pool: Pool) => OptionObject;
  initialId?: string | undefined;
}): StaticSelect | ExternalSelect {
  const initialPool = input.pools.find((p) => p.id === input.initialId);
  const initial = initialPool ? { initial_option: input.label(initialPool) } : {};
  if (needsTypeAhead(input.pools.length)) {
    return {
      type: 'external_select',
      action_id: input.actionId,
      placeholder: plain(input.placeholder),
      // 0: the menu lists the first pools as soon as it opens, before anything is typed.
      min_query_length: 0,
      ...initial,
    };
  }
  return {
    type: 'static_select',
    action_id: input.actionId,
    placeholder: plain(input.placeholder),
    options: input.pools.slice(0, LIMITS.selectOptions).map(input.label),
    ...initial,
  };
}

/** The answer to a block_suggestion: the offered pools matching `query`, best first, at most 100. */
export function buildPoolSuggestions(
  pools: readonly Pool[],
  query: string,
  label: (pool: Pool) => OptionObject,
): { options: OptionObject[] } {
  return { options: searchPools(pools, query, LIMITS.selectOptions).map(label) };
}
