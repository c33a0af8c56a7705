import { mount } from '../shared/mount.tsx';
import { SiteFooter, SiteHeader, SkipLink } from '../shared/Header.tsx';
import { PLATFORM_COUNT_WORD, PLATFORM_IDS, PLATFORM_RULES } from '../lib/platforms.ts';
import { readConfig } from '../shared/config.ts';
import dashboardShot from './dashboard-calendar.jpg';
import './landing.css';

/** The committed screenshot's size in pixels (test/browser/landing.test.ts checks it against the file). */
const DASHBOARD_SHOT = { width: 1280, height: 800 } as const;

/** Every platform's name (X without "(Twitter)"), from the platform list: "Facebook, ... and Mastodon". */
const PLATFORM_NAMES = PLATFORM_IDS.map((id) => PLATFORM_RULES[id].label.replace(/ \(.*\)$/, ''));
const PLATFORM_LIST = `${PLATFORM_NAMES.slice(0, -1).join(', ')} and ${PLATFORM_NAMES[PLATFORM_NAMES.length - 1]}`;

const FEATURES: Array<[string, string]> = [
  ['Schedule once, publish everywhere', `One post, up to ${PLATFORM_COUNT_WORD} platforms, each with its own text. Times are local to the zone you choose, DST included.`],
  ['Exactly once, on time', 'The schedule lives in PostgreSQL. Every publish is recorded before the platform is called, and a crashed worker\'s posts are checked with the platform before anything is retried.'],
  ['A Late-compatible REST API', 'The /v1 API follows Late\'s, so its official Node client works unchanged. OpenAPI 3.1 document included.'],
  ['Profiles for brands and clients', 'Group accounts under profiles, give each its own weekly posting queue, and let the team see what they need.'],
  ['A calendar, not JSON', 'The dashboard shows every post on a month or week calendar in your time zone, with a composer that checks each platform\'s rules as you type.'],
  ['Yours to run', 'npm ci && npm start: API, worker, embedded PostgreSQL and this web app in one process. Scale out by running more of them.'],
];

function Landing() {
  return (
    <>
      <SkipLink />
      <SiteHeader current="/" />
      <main id="main">
        <section className="hero">
          <div className="hero-inner">
            <div className="hero-text">
              <p className="eyebrow">Self-hosted social media scheduling</p>
              <h1>Schedule and publish posts to every network from one calendar.</h1>
              <p className="lead">
                Herald connects your {PLATFORM_LIST} accounts, checks each post against every platform's rules as you write it, publishes on time and exactly once,
                and gives developers the same power through a documented REST API.
              </p>
              <div className="cta">
                {readConfig().signup
                  ? <><a className="btn btn-primary" href="/signup">Get started</a><a className="btn" href="/dashboard">Sign in</a></>
                  : <a className="btn btn-primary" href="/dashboard">Open the dashboard</a>}
                <a className="btn" href="/docs">Read the API docs</a>
                <a className="btn btn-ghost" href="/pricing">See pricing</a>
              </div>
            </div>
            {/* A real screenshot of the dashboard: a Chromium render of the app, made by test/browser/landing.test.ts (npm run shoot:landing). */}
            <figure className="hero-shot">
              <div className="shot-frame">
                <span className="shot-dots" aria-hidden="true"><i /><i /><i /></span>
                <img src={dashboardShot} width={DASHBOARD_SHOT.width} height={DASHBOARD_SHOT.height} fetchPriority="high" decoding="async"
                  alt="The Herald dashboard: a week calendar of scheduled posts to X, LinkedIn, Instagram, Bluesky and more, each at its time, with the navigation to posts, queue, media, analytics and team." />
              </div>
              <figcaption>The dashboard's calendar: every scheduled post, across networks, in your time zone.</figcaption>
            </figure>
          </div>
        </section>
        <section className="api-strip" aria-labelledby="api-title">
          <div className="api-inner">
            <div>
              <h2 id="api-title">And an API for everything the dashboard does</h2>
              <p className="lead">The <code>/v1</code> REST API follows Late's, so its official Node client works unchanged. One request schedules a post on every network:</p>
              <p><a href="/docs">Read the API documentation</a> · <a href="/v1/openapi.json">OpenAPI document</a></p>
            </div>
            <pre className="hero-code" tabIndex={0} aria-label="Example request: schedule a post"><code>{`curl -X POST $HERALD/v1/posts \\
  -H "Authorization: Bearer $HERALD_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"content":"Hello from Herald","scheduledFor":"2030-01-15T09:30",
       "timezone":"Europe/Paris","platforms":[{"platform":"bluesky","accountId":"…"}]}'`}</code></pre>
          </div>
        </section>
        <section className="features" aria-labelledby="features-title">
          <h2 id="features-title">Built for developers, agencies and teams</h2>
          <div className="feature-grid">
            {FEATURES.map(([title, text]) => (
              <article key={title} className="card feature">
                <h3>{title}</h3>
                <p>{text}</p>
              </article>
            ))}
          </div>
        </section>
        <section className="platform-strip" aria-labelledby="platforms-title">
          <h2 id="platforms-title">{PLATFORM_IDS.length} platforms</h2>
          <ul>
            {PLATFORM_IDS.map((id) => (
              <li key={id}><span className="dot" style={{ background: PLATFORM_RULES[id].brand }} aria-hidden="true" />{PLATFORM_RULES[id].label}</li>
            ))}
          </ul>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}

mount(<Landing />);
