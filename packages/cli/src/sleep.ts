export const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
