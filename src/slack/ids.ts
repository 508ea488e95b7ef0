/**
 * Every Slack identifier License Desk uses, once. Builders put them on buttons, listeners register on
 * them; issue 5 wires the change buttons (assign, end date, revoke) whose ids are fixed here already.
 */

export const COMMAND = '/licenses' as const;

export const ActionId = {
  /** Navigation buttons: each carries a NavTarget (src/blocks/nav.ts) as JSON in its value. */
  navPrevious: 'nav_previous',
  navNext: 'nav_next',
  navToggleInactive: 'nav_toggle_inactive',
  /** "Licenses" on a pool: value is a NavTarget for the pool's first page. */
  poolLicenses: 'pool_licenses',
  /** "Details" on a license row: value is a NavTarget for the license. */
  licenseDetails: 'license_details',
  /** Change buttons (issue 5). Assign: value = pool id; the other two: value = license id. */
  poolAssign: 'pool_assign',
  licenseChangeEndDate: 'license_change_end_date',
  licenseRevoke: 'license_revoke',
} as const;

export type ActionIdValue = (typeof ActionId)[keyof typeof ActionId];

/** The navigation action ids, registered with one listener. */
export const NAV_ACTION_IDS = [
  ActionId.navPrevious,
  ActionId.navNext,
  ActionId.navToggleInactive,
  ActionId.poolLicenses,
  ActionId.licenseDetails,
] as const;

/** The change action ids; issue 5 replaces their placeholder listener. */
export const CHANGE_ACTION_IDS = [ActionId.poolAssign, ActionId.licenseChangeEndDate, ActionId.licenseRevoke] as const;
