/**
 * The dashboard's static files (`src/admin/dashboard/`: index.html, style.css, and app.js with the
 * ES modules it imports), served at `/_sim/` by the admin router, so the same access rule covers them.
 *
 * @note They are plain browser files with no build step: `tsc` does not copy them, so both the
 * sources (`src/admin/`) and the build (`dist/admin/`) read them from `src/admin/dashboard` under the
 * package root, which is why package.json `files` and the Dockerfile ship that directory.
 */
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import { requestTarget } from '../bindings/shared/http.js';

/** Resolved like `BUILTIN_SCENARIO_DIR`: two levels up from this module is the package root. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../src/admin/dashboard', import.meta.url));

/**
 * What the page may load: `/`, or a page, script or style sheet by a plain lowercase path
 * (`app.js`, `views/timeline.js`). Anything else never reaches the directory: not `/_sim//app.js`,
 * not an encoded `..`, not the type declarations that sit beside the modules for the server's sake.
 */
const PAGE_FILE = /^\/(?:(?:[a-z0-9-]+\/)*[a-z0-9-]+\.(?:html|js|css))?$/;

/**
 * Express middleware for the admin router: `GET /_sim/` answers index.html, `GET /_sim/app.js` the
 * script, `GET /_sim/views/timeline.js` one of the modules it imports; anything else falls through
 * to the router's 404.
 *
 * @example router.use(dashboardFiles());
 */
export function dashboardFiles() {
  const files = express.static(DASHBOARD_DIR, {
    index: 'index.html',
    redirect: false,
    cacheControl: false,
    // Revalidate every time (the ETag makes that a 304): an upgraded simulator never serves a stale page.
    setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!PAGE_FILE.test(req.path)) {
      next();
      return;
    }
    // The page loads its files and calls the API by relative URLs, which need the trailing slash.
    const { pathname, search } = requestTarget(req.originalUrl);
    if ((req.method === 'GET' || req.method === 'HEAD') && req.path === '/' && !pathname.endsWith('/')) {
      res.redirect(301, `${pathname}/${search}`);
      return;
    }
    files(req, res, next);
  };
}
