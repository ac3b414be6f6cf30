// An app-wide cap on new generations: at most `max` started in any `windowMs`, whoever asks.
//
// Each generation costs 100 credits, and the visitor who triggers it is anonymous. Whatever your
// own authorisation (`canServe` in app.ts) lets through, this bounds what a burst of requests for
// new profiles can spend: `max` × 100 credits per window. Visitors who wait for a generation
// already under way, and reads of existing articles, do not count.

export interface GenerationCap {
  /** Generations started per window, app-wide. */
  max: number;
  /** The window, in milliseconds. */
  windowMs: number;
}

/** Default: 10 generations (1,000 credits) per hour. Tune it to what you mean to spend. */
export const DEFAULT_GENERATION_CAP: GenerationCap = { max: 10, windowMs: 60 * 60_000 };

/** Thrown instead of starting a generation past the cap; the app answers 429 with `Retry-After`. */
export class GenerationCapError extends Error {
  override readonly name = 'GenerationCapError';
  constructor(readonly retryAfterSeconds: number) {
    super(`Generation cap reached; the next slot frees in ${retryAfterSeconds} s`);
  }
}

/** `take()` counts one generation, or throws `GenerationCapError` when the window is full. */
export function createGenerationCap({ max, windowMs }: GenerationCap, now: () => number = Date.now) {
  const started: number[] = []; // start times inside the window, oldest first
  return {
    take(): void {
      const time = now();
      while (started.length > 0 && started[0]! <= time - windowMs) started.shift();
      if (started.length >= max) {
        const freesAt = (started[0] ?? time) + windowMs;
        throw new GenerationCapError(Math.max(1, Math.ceil((freesAt - time) / 1000)));
      }
      started.push(time);
    },
  };
}
