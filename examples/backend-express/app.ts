// Your backend: the only place that holds the API key. The browser asks this server for an
// article; this server asks the Profile Article Service and answers with the article only.
import {
  ApiError,
  InsufficientCreditsError,
  JobFailedError,
  NotFoundError,
  type ProfileArticles,
  ProfileArticlesError,
  RateLimitError,
  TimeoutError,
} from '@profile-articles/sdk';
import express, { type Express, type Request, type Response } from 'express';
import {
  createGenerationCap,
  DEFAULT_GENERATION_CAP,
  type GenerationCap,
  GenerationCapError,
} from './generation-cap.js';
import { createGenerations } from './generations.js';

export interface AppOptions {
  /**
   * Whether this request may spend credits on `profileId`: a read (1 credit) and, when there is no
   * article yet, a generation (100). REPLACE IT with your own authorisation: the profiles your site
   * has, or what the signed-in user may ask for. Anything else is answered 404 with no call at all.
   */
  canServe: (profileId: string, req: Request) => boolean | Promise<boolean>;
  /** New generations per window, app-wide. Default `DEFAULT_GENERATION_CAP` (10 an hour). */
  generationCap?: GenerationCap;
}

export function createApp(client: ProfileArticles, options: AppOptions): Express {
  const app = express();
  const cap = createGenerationCap(options.generationCap ?? DEFAULT_GENERATION_CAP);
  const generate = createGenerations(client, { admit: () => cap.take() });

  // GET /profiles/:id/article: the existing article (1 credit), or a new one generated and
  // waited for (100 credits, once for all visitors who ask meanwhile) when there is none yet.
  app.get('/profiles/:id/article', async (req: Request<{ id: string }>, res: Response) => {
    const profileId = req.params.id;
    // Anonymous visitors choose the slug: only profiles this app serves may cost anything.
    if (!(await options.canServe(profileId, req)))
      return void res.status(404).json({ error: 'No such profile' });
    // Stop waiting (not the job, nor the generation others may be waiting for) when the visitor goes away.
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    try {
      const { article } = await client.articles.read(profileId, { signal: controller.signal });
      res.json({ article, generated: false });
    } catch (error) {
      if (!(error instanceof NotFoundError)) return fail(res, error);
      try {
        const article = await untilAborted(generate(profileId), controller.signal);
        res.json({ article, generated: true });
      } catch (generateError) {
        fail(res, generateError);
      }
    }
  });
  return app;
}

/** `promise`, or the signal's reason as soon as it aborts; `promise` itself goes on. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// What the frontend may know: a status and a sentence. Never the key, never the service's
// internals, and billing problems are the operator's business, not the visitor's.
function fail(res: Response, error: unknown) {
  if (res.headersSent || res.destroyed) return;
  if (error instanceof NotFoundError) return void res.status(404).json({ error: 'No such profile' });
  if (error instanceof JobFailedError)
    return void res.status(502).json({ error: 'The article could not be generated; try again later' });
  if (error instanceof RateLimitError || error instanceof GenerationCapError) {
    res.setHeader('Retry-After', String(error.retryAfterSeconds ?? 60));
    return void res.status(429).json({ error: 'Busy; try again shortly' });
  }
  if (error instanceof InsufficientCreditsError) {
    console.error('Out of credits: buy more (see examples/buy-credits)');
    return void res.status(503).json({ error: 'Temporarily unavailable' });
  }
  if (error instanceof TimeoutError)
    return void res.status(504).json({ error: 'Still being written; try again in a minute' });
  if (error instanceof ApiError || error instanceof ProfileArticlesError) {
    console.error(`Profile Article Service: ${error.name}: ${error.message}`);
    return void res.status(502).json({ error: 'Temporarily unavailable' });
  }
  console.error(error);
  res.status(500).json({ error: 'Internal error' });
}
