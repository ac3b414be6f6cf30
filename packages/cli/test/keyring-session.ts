// A real Secret Service for tests: a D-Bus session bus of its own (dbus-run-session) with
// Debian's gnome-keyring on it, unlocked as a desktop login would, in a home folder of its own.
// The CLI runs as a child process on that bus (its DBUS_SESSION_BUS_ADDRESS), and secret-tool
// looks at what it stored. Without those programs the tests say why they are skipped (CI
// installs them: .ci/run).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROGRAMS = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];

/** Why a keyring test cannot run here, or undefined when it can. */
export const keyringMissing: string | undefined = (() => {
  if (process.platform !== 'linux') return 'the Secret Service tests run on Linux only';
  const absent = PROGRAMS.filter((name) => spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0);
  return absent.length
    ? `${absent.join(', ')} not installed (apt-get install gnome-keyring libsecret-tools dbus-daemon dbus-bin)`
    : undefined;
})();

export interface KeyringSession {
  /** What a child needs to reach this session's bus. */
  readonly env: { DBUS_SESSION_BUS_ADDRESS: string };
  /** The secret stored for the CLI's service under `account`, or undefined when none is. */
  lookup(account: string): string | undefined;
  /** Locks the login collection, as a screen lock does. */
  lock(): void;
  /** The pid of the Secret Service's daemon (to stop it with SIGSTOP: a store that never answers). */
  daemonPid(): number;
  stop(): void;
}

// Unlocks (creating it on first use) the login keyring with the password `pw`, waits for the
// daemon to own the Secret Service's name, prints the bus address and the daemon's pid, and lives
// while stdin is open.
const SESSION_SCRIPT = `
printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
  org.freedesktop.DBus.GetNameOwner string:org.freedesktop.secrets >/dev/null 2>&1; do sleep 0.05; done
pid=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \
  org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '{print $2}')
echo "BUS $DBUS_SESSION_BUS_ADDRESS $pid"
cat >/dev/null
`;

export function startKeyringSession(): Promise<KeyringSession> {
  const home = mkdtempSync(join(tmpdir(), 'pa-keyring-'));
  const child: ChildProcess = spawn('dbus-run-session', ['--', 'sh', '-c', SESSION_SCRIPT], {
    env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data') },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  let log = '';
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`dbus-run-session exited ${code}: ${log}`)));
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const match = /BUS (\S+) (\d+)\n/.exec(output);
      if (!match) return;
      const env = { DBUS_SESSION_BUS_ADDRESS: match[1] as string };
      const daemon = Number(match[2]);
      const tools = { env: { PATH: process.env.PATH, HOME: home, ...env }, encoding: 'utf8' as const };
      resolve({
        env,
        lookup: (account) => {
          const found = spawnSync(
            'secret-tool',
            ['lookup', 'service', 'profile-articles', 'username', account],
            tools,
          );
          return found.status === 0 ? found.stdout : undefined;
        },
        lock: () => {
          execFileSync(
            'dbus-send',
            [
              '--session',
              '--print-reply',
              '--dest=org.freedesktop.secrets',
              '/org/freedesktop/secrets',
              'org.freedesktop.Secret.Service.Lock',
              'array:objpath:/org/freedesktop/secrets/collection/login',
            ],
            tools,
          );
        },
        daemonPid: () => daemon,
        stop: () => {
          child.removeAllListeners('exit');
          // The daemon (which left the group when it forked, and may be stopped), then the whole
          // group: the bus and the shell.
          for (const [pid, signal] of [
            [daemon, 'SIGCONT'],
            [daemon, 'SIGKILL'],
            [-(child.pid ?? 0), 'SIGKILL'],
          ] as const) {
            try {
              if (pid !== 0) process.kill(pid, signal);
            } catch {
              // already gone
            }
          }
        },
      });
    });
  });
}
