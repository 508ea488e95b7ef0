/** The modals' private_metadata and the buttons' values have their codecs in src/blocks/values.ts. */
export { channelOf } from '../../blocks/values.js';
