'use strict';
// The npm packages the Node.js adapters load: those pinned in tools/npm
// (package.json and package-lock.json), installed there with
//     npm ci --prefix tools/npm --ignore-scripts
// and loaded from there, or from the folder DMLCONF_NPM_PREFIX names (one
// that holds a node_modules folder installed from the same lockfile).

const path = require('path');

const NPM_PREFIX = process.env.DMLCONF_NPM_PREFIX || path.resolve(__dirname, '..', '..', 'tools', 'npm');
const INSTALL_HINT = 'npm ci --prefix tools/npm --ignore-scripts';

// The version a pinned package declares (its package.json), or null when it
// is not installed in tools/npm.
function installedVersion(name) {
    try {
        return require(path.join(NPM_PREFIX, 'node_modules', name, 'package.json')).version;
    } catch (error) {
        return null;
    }
}

// Loads a pinned package. Throws an Error whose message says how to install
// it when it is missing, and carries `notInstalled: true`.
function requirePinned(name) {
    let resolved;
    try {
        resolved = require.resolve(path.join(NPM_PREFIX, 'node_modules', name));
    } catch (error) {
        const missing = new Error(`${name} is not installed in ${NPM_PREFIX} (install it: ${INSTALL_HINT})`);
        missing.notInstalled = true;
        throw missing;
    }
    return require(resolved);
}

module.exports = {NPM_PREFIX, INSTALL_HINT, installedVersion, requirePinned};
