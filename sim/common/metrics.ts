/**
 * Plausible, growing post metrics for the simulators' analytics endpoints. Each post's numbers
 * start from a seed of its id and grow on every read (as a post keeps being seen), in ratios a
 * real post shows (impressions > reach > likes > comments, shares, saves). Each simulator serves
 * them under its platform's own names; {@link MetricsBook.last} tells a test what was served.
 */
import { createHash } from 'node:crypto';

/** The raw counts a simulator renders with its platform's names. */
export interface SimCounts {
  impressions: number;
  reach: number;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  quotes: number;
  saves: number;
  clicks: number;
  outboundClicks: number;
}

export class MetricsBook {
  private readonly reads = new Map<string, number>();
  private readonly served = new Map<string, SimCounts>();
  /** Counts set by a test (e.g. to pin a value), served instead of the grown ones. */
  private readonly pinned = new Map<string, Partial<SimCounts>>();

  /** The post's counts as of this read (each read grows them). */
  read(id: string): SimCounts {
    const n = (this.reads.get(id) ?? 0) + 1;
    this.reads.set(id, n);
    const seed = createHash('sha256').update(id).digest().readUInt32BE(0);
    const impressions = 40 + (seed % 200) + n * (25 + (seed % 40));
    const likes = Math.floor(impressions * (0.03 + (seed % 5) / 100));
    const counts: SimCounts = {
      impressions,
      reach: Math.floor(impressions * 0.7),
      views: Math.floor(impressions * 0.85),
      likes,
      comments: Math.floor(likes / 6),
      shares: Math.floor(likes / 9),
      quotes: Math.floor(likes / 25),
      saves: Math.floor(likes / 12),
      clicks: Math.floor(impressions / 60),
      outboundClicks: Math.floor(impressions / 150),
      ...this.pinned.get(id),
    };
    this.served.set(id, counts);
    return counts;
  }

  /** What the last read of the post served (undefined before the first). */
  last(id: string): SimCounts | undefined {
    return this.served.get(id);
  }

  /** Pins some of a post's counts (a test that needs a known value). */
  pin(id: string, counts: Partial<SimCounts>): void {
    this.pinned.set(id, counts);
  }
}

/**
 * A Graph API insights answer (Threads, Instagram, Facebook): one entry per metric with its
 * lifetime value (https://developers.facebook.com/docs/graph-api/reference/insights). A metric
 * named but not given is left out, as Graph does for data it does not have.
 */
export function graphInsights(id: string, asked: string[], values: Record<string, unknown>) {
  return {
    data: asked.filter((m) => values[m] !== undefined).map((name) => ({
      name, period: 'lifetime', values: [{ value: values[name] }], title: name, id: `${id}/insights/${name}/lifetime`,
    })),
  };
}
