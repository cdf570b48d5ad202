# Steward's container image. The steps live in deploy/image.sh, which CI also runs on a plain
# machine (it cannot build containers): build, prune to production dependencies, then a smoke test
# of the production start as the unprivileged user over a read-only tree.

FROM node:24-bookworm-slim AS build
# better-sqlite3 compiles its native module when no prebuilt one fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ git \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN bash deploy/image.sh build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    STEWARD_HOST=0.0.0.0 \
    STEWARD_PORT=3978 \
    STEWARD_DATA_DIR=/data \
    STEWARD_IMAGE_USER=node
WORKDIR /app
# Owned by root, read-only for the user Steward runs as (node, uid 1000, from the base image).
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/deploy ./deploy
RUN chmod -R go-w /app \
    # The smoke test: the image's command as its user, health, a token, one provisioning, SIGTERM.
    && bash deploy/image.sh smoke \
    && mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3978
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD node -e "fetch('http://127.0.0.1:'+(process.env.STEWARD_PORT||process.env.PORT||3978)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Listening on all interfaces needs STEWARD_PUBLIC_URL (the https address people reach Steward at).
CMD ["node", "dist/main.js"]
