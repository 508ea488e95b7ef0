/**
 * Roles kept in the database as the composition root sees them (kernel/slack/feature.ts): the buttons and
 * the form of `/licenses roles` (the command goes through the /licenses router). The resolver itself is
 * built with the kernel's deps (composeRoles), since every surface's gate asks it.
 */
import type { Feature } from '../../kernel/slack/feature.js';
import { registerRoles } from './register.js';

export function rolesFeature(): Feature {
  return { name: 'roles', register: registerRoles };
}
