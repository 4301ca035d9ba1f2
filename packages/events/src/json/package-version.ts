// Written by scripts/write-package-version.mjs from package.json; do not edit.
export const PACKAGE_VERSION = '0.1.0';
