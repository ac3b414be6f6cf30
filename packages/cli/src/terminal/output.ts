// What the CLI prints: human text or exactly one JSON value on stdout; notes, errors and
// the spinner on stderr. The spinner runs only on a terminal, outside CI, without NO_COLOR or --json.
// Every write crosses terminal-io.ts, which removes a server's control characters; what is one
// line here (an error, a status line, the spinner) is also kept to one line (the SDK's terminalSafe).

import { safeJson, terminalSafe } from '@profile-articles/sdk/internal/terminal';
import { invocation } from '../shell/invocation.js';
import type { Io } from './io.js';
import type { Report } from './report-error.js';
import { colorsFor, plain, type Style } from './style.js';
import { own, unfiltered } from './terminal-io.js';

interface Spinner {
  update(text: string): void;
  stop(): void;
}

/** The fields of `{"error": …}`, in their documented order. */
type ErrorReport = Omit<Report, 'exitCode'>;

/** `{"error": …}` with exactly the documented fields, in the documented order, whoever built the report. */
export function errorLine(report: ErrorReport): string {
  const { type, status, request_id, message, detail, hint, attempts, idempotency_key } = report;
  const error = { type, status, request_id, message, detail, hint, attempts, idempotency_key };
  return `${safeJson({ error })}\n`;
}

const NO_SPINNER: Spinner = { update() {}, stop() {} };

export class Output {
  readonly json: boolean;
  /**
   * Errors and warnings as JSON objects: under --json, and under --jq unless stderr is a
   * terminal, where a person typed the filter and reads the one-line error.
   */
  readonly #jsonErrors: boolean;
  readonly style: Style;
  readonly errStyle: Style;
  readonly #io: Io;
  /** --jq's filter: the JSON value goes through it (jq.ts) instead of straight to stdout. */
  readonly #jq: string | undefined;
  #pending: Promise<void> | undefined;
  /** How to name the CLI in a command to copy: `profile-articles`, or `pnpm cli` from a clone. */
  readonly #asTyped: (text: string) => string;

  /** `jsonFlag`: --json itself was given (with --jq or without), not only implied by --jq. */
  constructor(io: Io, json: boolean, jq?: string, profile?: string, jsonFlag = json && jq === undefined) {
    this.#io = io;
    this.#jq = jq;
    const cli = invocation(io.env, profile);
    // Hints and notes spell commands as `profile-articles …`; from a clone, or with --profile,
    // they must say what works there (a command that names its profile already keeps its own).
    this.#asTyped =
      cli === 'profile-articles'
        ? (text) => text
        : (text) =>
            text.replace(/(`|\| )profile-articles(?=[ `])([^`]*)/g, (_all, before: string, rest: string) =>
              rest.includes('--profile') ? `${before}${invocation(io.env)}${rest}` : `${before}${cli}${rest}`,
            );
    this.json = json;
    this.#jsonErrors = json && !(jq !== undefined && io.stderr.isTTY === true && !jsonFlag);
    // JSON is for programs: no colour in it, whatever the terminal.
    this.style = json ? plain : colorsFor(io.stdout, io.env);
    this.errStyle = colorsFor(io.stderr, io.env);
  }

  /** Whether what goes to stderr (errors, warnings, log and --verbose lines) is JSON: see #jsonErrors. */
  get jsonOnStderr(): boolean {
    return this.#jsonErrors;
  }

  /** The one JSON value of a --json run; with --jq, what the filter makes of it (see `settled`). */
  value(value: unknown): void {
    const filter = this.#jq;
    if (filter === undefined) {
      this.#io.stdout.write(`${safeJson(value, 2)}\n`);
      return;
    }
    // After any value before it, so that each is printed, in order, and `settled` waits for all.
    this.#pending = (this.#pending ?? Promise.resolve())
      .then(() => import('./jq.js'))
      .then(({ runJq }) => runJq(value, filter, this.#io.stdout.isTTY === true))
      .then((text) => this.raw(text));
  }

  /** Once the command has returned: the --jq output is written, or its failure thrown. */
  async settled(): Promise<void> {
    await this.#pending;
  }

  /**
   * Text for a program, as it is (an article's Markdown, a jq result): exact in a pipe or a file;
   * on a terminal it crosses the control-character rule as everything else does (terminal-io.ts).
   */
  raw(text: string): void {
    const stdout = this.#io.stdout;
    (stdout.isTTY ? stdout : unfiltered(stdout)).write(text);
  }

  /** Human output on stdout. */
  line(text = ''): void {
    this.#io.stdout.write(`${text}\n`);
  }

  /** A note for a person, on stderr; silent with --json. */
  note(text: string): void {
    if (!this.json) this.#io.stderr.write(`${this.#asTyped(text)}\n`);
  }

  /** A warning a person must see even with --json (then as `{"warning": …}`), on stderr. */
  warn(text: string): void {
    const typed = this.#asTyped(text);
    this.#io.stderr.write(
      this.#jsonErrors ? `${safeJson({ warning: typed })}\n` : `${this.errStyle.yellow(typed)}\n`,
    );
  }

  /** The run's error: a line and a hint for a person; under --json one `{"error": …}` object, last on stderr. */
  error(asWritten: ErrorReport): void {
    const report = {
      ...asWritten,
      message: this.#asTyped(asWritten.message),
      hint: asWritten.hint && this.#asTyped(asWritten.hint),
    };
    if (this.#jsonErrors) {
      this.#io.stderr.write(errorLine(report));
      return;
    }
    if (!report.message) return; // a quiet interrupt
    const s = this.errStyle;
    // One line each, whatever a server's detail or a job's error put into them; the request id
    // last, on a line of its own: what to quote when asking about the call.
    const [message, hint] = [terminalSafe(report.message), report.hint && terminalSafe(report.hint)];
    const requestId = report.request_id ? `\n${s.dim(`Request id: ${terminalSafe(report.request_id)}`)}` : '';
    this.#io.stderr.write(
      // An interrupt was the person's own choice: no "Error:" before it.
      `${report.type === 'Interrupted' ? '' : `${s.red('Error:')} `}${message}${hint ? `\n${s.dim(hint)}` : ''}${requestId}\n`,
    );
  }

  /** A spinner on a terminal unless CI is set (non-empty) or NO_COLOR / --json ask for plain output. */
  get spinnerEnabled(): boolean {
    const { CI: ci, NO_COLOR: noColor } = this.#io.env;
    return !this.json && this.#io.stderr.isTTY === true && !ci && !noColor;
  }

  /**
   * Where no spinner runs (CI, NO_COLOR, a pipe), a wait still shows progress: a plain line on
   * stderr each time the status changes, so a log reads "queued", then "running". Silent with --json.
   */
  statusLines(): (line: string) => void {
    if (this.spinnerEnabled || this.json) return () => {};
    let last: string | undefined;
    return (text) => {
      const line = terminalSafe(text);
      if (line !== last) this.note(line);
      last = line;
    };
  }

  /** After Ctrl-C on a terminal: the line the key echoed `^C` on is cleared for the message. */
  clearInterruptedLine(): void {
    if (this.#io.stderr.isTTY) this.#io.stderr.write(own('\r\x1b[2K'));
  }

  /**
   * An ora spinner on stderr, or nothing at all where it would be noise. ora writes its own
   * escape codes to the stream itself, so its text is made one safe line here, first.
   */
  async spinner(text: string): Promise<Spinner> {
    if (!this.spinnerEnabled) return NO_SPINNER;
    const { default: ora } = await import('ora');
    const spinner = ora({
      text: terminalSafe(text),
      stream: unfiltered(this.#io.stderr) as NodeJS.WritableStream,
      discardStdin: false,
      // Decided above; ora's own check would take an empty CI for CI (docs/decisions/0004).
      isEnabled: true,
    }).start();
    return {
      update: (next) => {
        spinner.text = terminalSafe(next);
      },
      stop: () => spinner.stop(),
    };
  }
}
