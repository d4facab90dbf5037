# syntax=docker/dockerfile:1
# One image per service, from one file: docker build --target <gateway|reference|finance|audit|scheduling> .
FROM node:20-bookworm-slim AS build
WORKDIR /repo
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY tools/docker/grpc-health.cjs ./grpc-health.cjs
# SERVICE_ENV (libs/lifecycle/src/node-flags.ts): large freed blocks go back to the system.
ENV MALLOC_MMAP_THRESHOLD_=131072
USER node
STOPSIGNAL SIGTERM
# Every CMD below runs node with SERVICE_NODE_FLAGS (libs/lifecycle/src/node-flags.ts); a test holds them the same.

FROM runtime AS gateway
COPY --from=build /repo/dist/apps/gateway ./dist/apps/gateway
ENV PORT=3000 METRICS_PORT=9467
EXPOSE 3000 9467
HEALTHCHECK --interval=5s --timeout=3s --retries=10 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "dist/apps/gateway/main.cjs"]

FROM runtime AS reference
COPY --from=build /repo/dist/apps/reference ./dist/apps/reference
ENV GRPC_PORT=50051 METRICS_PORT=9464
EXPOSE 50051 9464
HEALTHCHECK --interval=5s --timeout=3s --retries=20 CMD ["node", "grpc-health.cjs"]
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "dist/apps/reference/main.cjs"]

FROM runtime AS finance
COPY --from=build /repo/dist/apps/finance ./dist/apps/finance
ENV GRPC_PORT=50052 METRICS_PORT=9465
EXPOSE 50052 9465
HEALTHCHECK --interval=5s --timeout=3s --retries=20 CMD ["node", "grpc-health.cjs"]
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "dist/apps/finance/main.cjs"]

FROM runtime AS audit
COPY --from=build /repo/dist/apps/audit ./dist/apps/audit
ENV GRPC_PORT=50053 METRICS_PORT=9466
EXPOSE 50053 9466
HEALTHCHECK --interval=5s --timeout=3s --retries=20 CMD ["node", "grpc-health.cjs"]
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "dist/apps/audit/main.cjs"]

FROM runtime AS scheduling
COPY --from=build /repo/dist/apps/scheduling ./dist/apps/scheduling
ENV GRPC_PORT=50054 METRICS_PORT=9468
EXPOSE 50054 9468
HEALTHCHECK --interval=5s --timeout=3s --retries=20 CMD ["node", "grpc-health.cjs"]
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "dist/apps/scheduling/main.cjs"]

FROM runtime AS notifications
COPY --from=build /repo/dist/apps/notifications ./dist/apps/notifications
ENV GRPC_PORT=50055 METRICS_PORT=9469
EXPOSE 50055 9469
HEALTHCHECK --interval=5s --timeout=3s --retries=20 CMD ["node", "grpc-health.cjs"]
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "dist/apps/notifications/main.cjs"]
