/**
 * Preloaded into a child running the app (`node --import tsx --import <this file> dist/main.js`):
 * on SIGUSR2 it injects the fault named by LICENSE_DESK_TEST_FAULT, so a test can watch the
 * process-level error policy act in the real process. Test support only; never imported by src/.
 */
const fault = process.env.LICENSE_DESK_TEST_FAULT;

process.on('SIGUSR2', () => {
  if (fault === 'rejection') void Promise.reject(new Error('injected rejection'));
  if (fault === 'exception') {
    setImmediate(() => {
      throw new Error('injected exception');
    });
  }
});
