// testTimeout in a project's config is ignored when the root config runs several projects (npm test),
// so the e2e timeout is set here, where every e2e test file gets it.
jest.setTimeout(60_000);
