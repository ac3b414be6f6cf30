// The longest wait a timer holds (2^31 − 1 ms, about 24.8 days; the SDK's MAX_TIMER_MS): a
// longer one fires after 1 ms, so a huge --timeout would give up at once on a paid job and a
// huge --poll-interval would poll in a busy loop. Kept here so that reading flags loads no SDK.
export const MAX_WAIT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
