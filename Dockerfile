# syntax=docker/dockerfile:1
# a2a-sim: build once, then ship the bundled CLI and only what it loads at run time.
# Node 26 is the active LTS line (Node 20, which the code still supports, ended in April 2026).

FROM node:26-alpine AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No lifecycle scripts: the build is the explicit step below, once the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# scripts/bundle-cli.ts bundles the CLI and its dependencies into the one file dist/cli/main.js.
COPY scripts ./scripts
RUN npm run build

FROM node:26-alpine AS runtime
ENV NODE_ENV=production \
    A2A_SIM_HOST=0.0.0.0 \
    A2A_SIM_PORT=41241
WORKDIR /app
# "type": "module" for the bundle; nothing is installed from it.
COPY package.json ./
COPY --from=build /app/dist/cli ./dist/cli
# Left out of the bundle and imported on first use: fake data (faker) and the live feed (ws).
COPY --from=build /app/node_modules/@faker-js ./node_modules/@faker-js
COPY --from=build /app/node_modules/ws ./node_modules/ws
COPY scenarios ./scenarios
# The dashboard's browser files are served as they are, from src/ (the build does not copy them).
COPY src/admin/dashboard ./src/admin/dashboard
USER node
EXPOSE 41241
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.A2A_SIM_PORT||41241)+'/_sim/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same command the CLI tests run in this layout: every option comes from A2A_SIM_* variables or extra arguments.
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
