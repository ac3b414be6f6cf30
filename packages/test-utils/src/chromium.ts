// Debian's Chromium, as the browser tests drive it through playwright-core: the binary apt
// installs (playwright never downloads one) and the flags that keep it headless, offline and
// quiet. Tests skip themselves where the binary is missing.
export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
