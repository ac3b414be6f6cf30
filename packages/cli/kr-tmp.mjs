import { AsyncEntry } from '@napi-rs/keyring';

const t0 = Date.now();
const e = new AsyncEntry('profile-articles', 'x@http://h', { linux: { store: 'secret-service' } });
for (const op of ['get', 'set', 'get', 'del']) {
  try {
    const r =
      op === 'set'
        ? await e.setPassword('s2', AbortSignal.timeout(3000))
        : op === 'get'
          ? await e.getPassword(AbortSignal.timeout(3000))
          : await e.deletePassword(AbortSignal.timeout(3000));
    console.log(op, r, Date.now() - t0);
  } catch (err) {
    console.log(op, 'err', err.message, Date.now() - t0);
  }
}
