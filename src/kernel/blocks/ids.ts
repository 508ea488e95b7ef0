/**
 * Every Slack identifier License Desk uses, once. Builders put them on buttons, listeners register on
 * them, the change buttons (assign, end date, revoke) included.
 */

export const COMMAND = '/licenses' as const;

export const ActionId = {
  /** Navigation buttons: each carries a NavTarget (src/kernel/blocks/nav.ts) as JSON in its value. */
  navPrevious: 'nav_previous',
  navNext: 'nav_next',
  navToggleInactive: 'nav_toggle_inactive',
  /** "Licenses" on a pool: value is a NavTarget for the pool's first page. */
  poolLicenses: 'pool_licenses',
  /** "Details" on a license row: value is a NavTarget for the license. */
  licenseDetails: 'license_details',
  /** Change buttons. Assign: value = pool id; the other two: value = license id. */
  poolAssign: 'pool_assign',
  licenseChangeEndDate: 'license_change_end_date',
  licenseRevoke: 'license_revoke',
  /** "Export" under `/licenses history`: value is the history's NavTarget (its first page); the CSV goes to a DM. */
  historyExport: 'history_export',
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

/** Modals and message buttons of the change flows. */
export const CallbackId = {
  assignShortcut: 'assign_license_shortcut',
  assignForm: 'assign_license_modal',
  recycleConfirm: 'recycle_confirm_modal',
  extendForm: 'extend_license_modal',
  extendPastConfirm: 'extend_past_confirm_modal',
  /** Loading, working and result views: nothing to submit. */
  changeInfo: 'change_info_modal',
} as const;

/** Input blocks of the change modals: inline errors are keyed by these (platform.md section 3). */
export const InputId = {
  assignPool: { block: 'assign_pool', action: 'assign_pool_select' },
  assignEmail: { block: 'assign_email', action: 'assign_email_input' },
  assignUser: { block: 'assign_user', action: 'assign_user_select' },
  assignName: { block: 'assign_name', action: 'assign_name_input' },
  assignEndDate: { block: 'assign_end_date', action: 'assign_end_date_pick' },
  assignRecycle: { block: 'assign_recycle', action: 'assign_recycle_check' },
  recycleChoice: { block: 'recycle_choice', action: 'recycle_choice_select' },
  extendQuick: { block: 'extend_quick', action: 'extend_quick_choice' },
  extendDate: { block: 'extend_date', action: 'extend_date_pick' },
} as const;

export const ChangeActionId = {
  /** Revoke confirmation message: value = license id. */
  revokeConfirm: 'revoke_confirm',
  revokeCancel: 'revoke_cancel',
  /** "Retry assign" in the result view after a recycle whose assign failed (parameters in private_metadata). */
  retryAssign: 'retry_assign',
} as const;

/** App Home, alerts and bulk assignment. */
export const DeskActionId = {
  homeRefresh: 'home_refresh',
  /** Opens the bulk-assign modal (Home tab); value unused. */
  bulkOpen: 'bulk_open',
  /** "Let it end" on a license-ending alert: value = license id. */
  alertLetEnd: 'alert_let_end',
  /** "Return this seat" on a completed license in App Home: value = license id; opens the revoke confirmation. */
  returnSeat: 'home_return_seat',
  /** "Revoke now" in the confirmation "Return this seat" sent by DM: value = license id; App Home then shows the outcome. */
  returnSeatConfirm: 'home_return_confirm',
  /** "Run the progress pass now" in an admin's App Home: value unused. */
  progressRun: 'home_progress_run',
  /** "Show holders" on the weekly digest: value unused (the answer is computed afresh). */
  digestShowHolders: 'digest_show_holders',
} as const;

export const DeskCallbackId = {
  bulkForm: 'bulk_assign_form',
  bulkConfirm: 'bulk_assign_confirm',
  /** Loading and started views: nothing to submit. */
  bulkInfo: 'bulk_assign_info',
} as const;

export const BulkInputId = {
  pool: { block: 'bulk_pool', action: 'bulk_pool_select' },
  endDate: { block: 'bulk_end_date', action: 'bulk_end_date_pick' },
  /** One box per 3,000 characters: block ids bulk_list_1 … bulk_list_5. */
  list: (n: number) => ({ block: `bulk_list_${n}`, action: `bulk_list_input_${n}` }),
  recycle: { block: 'bulk_recycle', action: 'bulk_recycle_confirm' },
} as const;

/** Block id of a license-ending alert's buttons: value = license id. */
export const alertLicenseBlockId = (licenseId: string) => `alert_license_${licenseId}`;

/**
 * The waitlist (App Home section and `/licenses waitlist`): each button's value is a WaitlistButton
 * (src/requests/domain/waitlist.ts) as JSON: the request id and the pool whose line is shown.
 */
export const WaitlistActionId = {
  moveUp: 'waitlist_move_up',
  moveDown: 'waitlist_move_down',
  /** Behind Slack's confirmation dialog. */
  remove: 'waitlist_remove',
} as const;

/** A seat offered from the waitlist (docs/leavers-and-offers.md#seats-offered-then-claimed), in the requester's DM: value = the offer id. */
export const OfferActionId = {
  claim: 'waitlist_offer_claim',
  decline: 'waitlist_offer_decline',
} as const;

/** Block id of one waiting request's buttons. */
export const waitlistEntryBlockId = (requestId: string) => `waitlist_entry_${requestId}`;

/** Self-service course requests: the form, the approvers' card, the requester's list, the Workflow Builder step. */
export const RequestActionId = {
  /** On the card: value = request id. */
  approve: 'request_approve',
  deny: 'request_deny',
  /** After approving for a full pool: value = request id. */
  waitlist: 'request_waitlist',
  recycle: 'request_recycle',
  /** In `/licenses requests`: value = request id. */
  cancel: 'request_cancel',
  /** "Request a course" on the Home tab; value unused. */
  open: 'request_open',
  /** "Ask for it again" after a reclaim release: value = pool id (the form opens with that pool). */
  openFor: 'request_open_pool',
} as const;

/** Reclaim rounds (docs/reclaim.md). */
export const ReclaimActionId = {
  /** In the preview, one per no-answer policy: value = blocks/reclaim.ts `encodeReclaimStart` (pool and policy). */
  startRelease: 'reclaim_start_release',
  startList: 'reclaim_start_list',
  /** In the holder's DM: value = the ask's id. */
  keep: 'reclaim_keep',
  release: 'reclaim_release',
} as const;

/** A learner's ask for more time (docs/learners.md, "Ask for more time"). */
export const ExtensionActionId = {
  /** "Ask for more time" on a learner's own license (`/licenses mine`, App Home, reminder DMs): value = license id. */
  moreTime: 'learner_more_time',
  /** On the approvers' card: value = the extension request's id. */
  approve: 'extension_approve',
  deny: 'extension_deny',
} as const;

export const ExtensionCallbackId = {
  /** The form: private_metadata = license id. */
  form: 'extension_form',
  /** Deny's optional reason: private_metadata = the extension request's id. */
  denyForm: 'extension_deny_modal',
  /** Working and result views: nothing to submit. */
  info: 'extension_info_modal',
} as const;

export const ExtensionInputId = {
  endDate: { block: 'extension_end_date', action: 'extension_end_date_pick' },
  reason: { block: 'extension_reason', action: 'extension_reason_input' },
  denyReason: { block: 'extension_deny_reason', action: 'extension_deny_reason_input' },
} as const;

/** The learner's own desk (docs/learners.md): `/licenses mine`, App Home's "Your licenses", reminders. */
export const LearnerActionId = {
  /** On each of a member's licenses: value = the license id. */
  returnSeat: 'learner_return',
  /** On each of a member's licenses (the extension request's form): value = the license id. */
  moreTime: ExtensionActionId.moreTime,
  /** In a reminder's DM. */
  stopReminders: 'learner_stop_reminders',
} as const;

export const LearnerCallbackId = {
  /** The confirmation of "Return my seat": private_metadata = the license id and where it was clicked. */
  returnConfirm: 'learner_return_confirm',
} as const;

export const RequestCallbackId = {
  /** The global shortcut "Request a course license" (manifest.yml). */
  shortcut: 'request_course_shortcut',
  form: 'request_course_modal',
  /** Deny's optional reason: private_metadata = request id. */
  denyForm: 'request_deny_modal',
  /** Loading, working and result views: nothing to submit. */
  info: 'request_info_modal',
  /** The Workflow Builder step (manifest.yml functions). */
  workflowStep: 'request_course_license',
} as const;

export const RequestInputId = {
  pool: { block: 'request_pool', action: 'request_pool_select' },
  reason: { block: 'request_reason', action: 'request_reason_input' },
  neededBy: { block: 'request_needed_by', action: 'request_needed_by_pick' },
  denyReason: { block: 'request_deny_reason', action: 'request_deny_reason_input' },
} as const;

/** Roles kept in the database (`/licenses roles`, docs/roles-and-approvals.md): owners only. */
export const RolesActionId = {
  /** "Give a role": opens the form. */
  give: 'roles_give',
  /** "Take away" on a row: value = the grant's id (Slack's confirm dialog first). */
  takeAway: 'roles_take_away',
  /** The listing's pages: value = the page number (0-based). */
  page: 'roles_page',
} as const;

export const RolesCallbackId = {
  give: 'roles_give_modal',
} as const;

export const RolesInputId = {
  person: { block: 'roles_person', action: 'roles_person_pick' },
  group: { block: 'roles_group', action: 'roles_group_pick' },
  role: { block: 'roles_role', action: 'roles_role_pick' },
  scope: { block: 'roles_scope', action: 'roles_scope_pick' },
  course: { block: 'roles_course', action: 'roles_course_pick' },
  pools: { block: 'roles_pools', action: 'roles_pools_pick' },
} as const;

/** `/licenses approvals` (docs/roles-and-approvals.md, "Approving many at once"). */
export const ApprovalsActionId = {
  /** The list's pager: value = the page to show. */
  previous: 'approvals_previous',
  next: 'approvals_next',
  /** Push the confirmation (approve) or the reason form (deny) over the list. */
  approveSelected: 'approvals_approve_selected',
  denySelected: 'approvals_deny_selected',
} as const;

export const ApprovalsCallbackId = {
  /** The list: private_metadata = the page shown and the requests selected (approvals/domain/selection.ts). */
  list: 'approvals_list',
  /** The confirmation of Approve selected: private_metadata = the selection. */
  confirmApprove: 'approvals_confirm_approve',
  /** Deny selected's reason: private_metadata = the selection. */
  confirmDeny: 'approvals_confirm_deny',
  /** Loading and result views: nothing to submit. */
  info: 'approvals_info',
} as const;

export const ApprovalsInputId = {
  /** One checkbox group per ten requests of one pool on the page: approvals_pick_0 … */
  pickBlock: (n: number) => `approvals_pick_${n}`,
  pickAction: 'approvals_pick',
  denyReason: { block: 'approvals_deny_reason', action: 'approvals_deny_reason_input' },
} as const;

/** A mass change held for a second admin (docs/roles-and-approvals.md): every value is the change's id. */
export const TwoPersonActionId = {
  /** On the other admins' card. */
  approve: 'two_person_approve',
  reject: 'two_person_reject',
  /** Where nobody else can approve: the admin's own "send it anyway" and "do not send" (a message). */
  sendAlone: 'two_person_send_alone',
  dropAlone: 'two_person_drop_alone',
} as const;

export const TwoPersonCallbackId = {
  /** The bulk modal's "nobody else can approve this: send it anyway?" step: private_metadata = the change's id. */
  sendAlone: 'two_person_send_alone_modal',
  /** The bulk modal's "sent for a second admin's approval": nothing to submit. */
  info: 'two_person_info_modal',
} as const;

/** Who approves (docs/roles-and-approvals.md): App Home's "Away and delegates", the owners' card. */
export const ApproverActionId = {
  /** App Home: opens the away form; value unused. */
  awayOpen: 'approvers_away_open',
  /** App Home: "End it now"; value = the delegation id. */
  awayEnd: 'approvers_away_end',
  /** App Home: the daily list on or off; value = 'on' | 'off'. */
  dailyList: 'approvers_daily_list',
  /** The owners' card of a delegation waiting for their yes: value = the delegation id. */
  accept: 'approvers_delegation_accept',
  refuse: 'approvers_delegation_refuse',
} as const;

export const ApproverCallbackId = {
  /** The away form: from, until, the delegate. */
  awayForm: 'approvers_away_modal',
} as const;

export const ApproverInputId = {
  from: { block: 'approvers_from', action: 'approvers_from_pick' },
  until: { block: 'approvers_until', action: 'approvers_until_pick' },
  delegate: { block: 'approvers_delegate', action: 'approvers_delegate_pick' },
} as const;

/**
 * The Slackbot tools (docs/slackbot.md): their names in `tools/list`, and the action id of a button in a
 * tool's answer, which Slack turns into a call of that tool (`tool:<name>`, the button's value its
 * arguments as JSON).
 */
export const SlackbotTool = {
  listPools: 'list_pools',
  getPool: 'get_pool',
  personLicenses: 'find_licenses',
  holders: 'list_holders_by_progress',
  runOut: 'pool_run_out',
  waiting: 'list_waiting',
  history: 'search_history',
  assign: 'assign_license',
  extend: 'extend_license',
  revoke: 'revoke_license',
  recycle: 'recycle_seat',
  requestCourse: 'request_course',
  askMoreTime: 'ask_more_time',
} as const;

export const slackbotToolActionId = (tool: string): string => `tool:${tool}`;
