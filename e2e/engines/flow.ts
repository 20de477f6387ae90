import type { MediaFixtures } from '../media-fixtures.ts';
import type { Api } from './api.ts';
import type { EngineName, Page } from './driver.ts';

/** What one flow gets: pages of the engine under test, the API for setup, generated media, notes. */
export interface FlowContext {
  readonly engine: EngineName;
  readonly api: Api;
  readonly media: MediaFixtures;
  /** A new page in its own profile (a second user is a second page). Closed by the runner. */
  newPage(): Promise<Page>;
  /** A screenshot of `page` into the run's output directory, named by engine and flow. */
  shot(page: Page, name: string): Promise<void>;
  /**
   * What several engines can share (authors and their processed posts): made once per run by the first
   * flow that asks, so media processing is paid once, not three times.
   */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Something the table should say beside the result (what the engine could not be asked). */
  note(text: string): void;
}

export interface Flow {
  /** The id on the command line (`--flows=auth,feed`) and in screenshot names. */
  readonly id: string;
  /** The name in the table. */
  readonly name: string;
  run(ctx: FlowContext): Promise<void>;
}

/** Fails the flow with `message` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
