import { packageBuild } from '../../tsup.base.js';

// The CommonJS build requires the code search package where the ESM build imports it, so that a CommonJS host loads
// the CommonJS copy of it and of the packages it shares with the runtime.
export default packageBuild(['src/index.ts'], {
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
  },
});
