/**
 * Small named values the app keeps between starts (a key, its value, when it changed).
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table state (key text primary key, value text not null, updated_at text not null)
`);
