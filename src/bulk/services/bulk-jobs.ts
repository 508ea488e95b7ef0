/** The bulk jobs' store moved to the feature's db layer; this name stays for the runner and the importer. */
export * from '../db/store.js';
