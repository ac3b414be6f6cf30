// A Secret Service for the start-up bench: gnome-keyring, unlocked, on a D-Bus session of its
// own (dbus-run-session), as a desktop login leaves it. Resolves to the bus address, or to a
// reason when those programs are missing (the row then reports the problem, not a ratio).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROGRAMS = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon'];

const SCRIPT = `
printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
  org.freedesktop.DBus.GetNameOwner string:org.freedesktop.secrets >/dev/null 2>&1; do sleep 0.05; done
pid=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
  org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '{print $2}')
echo "BUS $DBUS_SESSION_BUS_ADDRESS $pid"
cat >/dev/null
`;

/** `{ address, stop }`, or `{ missing }` naming what is not installed. */
export async function startKeyring() {
  const absent = PROGRAMS.filter((name) => spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0);
  if (process.platform !== 'linux' || absent.length)
    return { missing: absent.length ? `${absent.join(', ')} not installed` : 'Linux only' };
  const home = mkdtempSync(join(tmpdir(), 'pa-bench-keyring-'));
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', SCRIPT], {
    env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data') },
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  const [address, daemon] = await new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`dbus-run-session exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /BUS (\S+) (\d+)\n/.exec(output);
      if (match) resolve([match[1], Number(match[2])]);
    });
  });
  child.removeAllListeners('exit');
  return {
    address,
    stop: () => {
      for (const pid of [daemon, -child.pid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
    },
  };
}
